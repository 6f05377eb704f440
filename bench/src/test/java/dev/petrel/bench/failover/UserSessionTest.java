package dev.petrel.bench.failover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class UserSessionTest {
    @Test
    void keepsTheLatestValueOfEachCookieAndSendsThemAll() {
        UserSession user = new UserSession("u1");
        assertThat(user.cookieHeader()).isNull();

        user.update(List.of("JSESSIONID=ABC.p1; Path=/cluster; HttpOnly", "SERVERID=p1; path=/"));
        assertThat(user.cookieHeader()).isEqualTo("JSESSIONID=ABC.p1; SERVERID=p1");

        // failed over: Tomcat's JvmRouteBinderValve re-tags the id, HAProxy names the new server
        user.update(List.of("JSESSIONID=ABC.p2; Path=/cluster; HttpOnly"));
        user.update(List.of("SERVERID=p2; path=/"));
        assertThat(user.cookieHeader()).isEqualTo("JSESSIONID=ABC.p2; SERVERID=p2");
    }

    @Test
    void recognisesItsUserInAnAnswerAndReadsTheRoute() {
        UserSession user = new UserSession("u1");

        assertThat(user.recognisedIn("\nuser=u1 route=p2\n")).isTrue();
        assertThat(user.recognisedIn("user=u10 route=p2")).isFalse();
        assertThat(user.recognisedIn("user=none route=p2")).isFalse();
        assertThat(UserSession.routeOf("\nuser=u1 route=p2\n")).isEqualTo("p2");
        assertThat(UserSession.routeOf("HelloWorld")).isNull();
    }
}
