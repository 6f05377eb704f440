package dev.petrel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link PathTemplates}: which template a path matches, and what it captures. */
class PathTemplatesTest {
    private static PathTemplates<String> templates(String... patterns) {
        PathTemplates.Builder<String> builder = new PathTemplates.Builder<>();
        for (String pattern : patterns) builder.add(pattern, pattern);
        return builder.build();
    }

    /** The pattern that matched {@code path} and its captures, or null. */
    private static Map.Entry<String, Map<String, String>> match(PathTemplates<String> templates, String path) {
        PathParameters captures = new PathParameters();
        captures.reset(path);
        String matched = templates.match(path, captures);
        return matched == null ? null : Map.entry(matched, captures.asMap());
    }

    @Test
    void aVariableMatchesOneNonEmptySegment() {
        var t = templates("/users/{id}");
        assertThat(match(t, "/users/42")).isEqualTo(Map.entry("/users/{id}", Map.of("id", "42")));
        assertThat(match(t, "/users/a b")).isEqualTo(Map.entry("/users/{id}", Map.of("id", "a b")));
        assertThat(match(t, "/users/")).isNull();
        assertThat(match(t, "/users")).isNull();
        assertThat(match(t, "/users/42/")).isNull();
        assertThat(match(t, "/users/42/x")).isNull();
        assertThat(match(t, "/user/42")).isNull();
        assertThat(match(t, "/")).isNull();
    }

    @Test
    void severalVariablesAreCapturedInOrder() {
        var t = templates("/users/{user}/posts/{post}");
        var matched = match(t, "/users/7/posts/hello");
        assertThat(matched.getValue()).containsExactly(Map.entry("user", "7"), Map.entry("post", "hello"));
    }

    @Test
    void aLiteralWinsOverAVariableWhateverTheOrderGiven() {
        for (var t : new PathTemplates[] {templates("/users/{id}", "/users/me/{tab}"), templates("/users/me/{tab}", "/users/{id}")}) {
            @SuppressWarnings("unchecked")
            PathTemplates<String> typed = t;
            assertThat(match(typed, "/users/me/likes").getKey()).isEqualTo("/users/me/{tab}");
            assertThat(match(typed, "/users/me").getKey()).isEqualTo("/users/{id}");
            assertThat(match(typed, "/users/you").getKey()).isEqualTo("/users/{id}");
        }
    }

    @Test
    void aBranchThatFailsFurtherDownGivesWayToTheNext() {
        // /a/b/c: the literal b leads to /a/b/d, which fails at c; the variable then matches it
        var t = templates("/a/b/d", "/a/{x}/c", "/a/{x}/{y}/{rest...}");
        assertThat(match(t, "/a/b/c")).isEqualTo(Map.entry("/a/{x}/c", Map.of("x", "b")));
        assertThat(match(t, "/a/b/d")).isEqualTo(Map.entry("/a/b/d", Map.of()));
        // a capture taken on a failed branch is taken back
        assertThat(match(t, "/a/b/z/q/r")).isEqualTo(Map.entry("/a/{x}/{y}/{rest...}", Map.of("x", "b", "y", "z", "rest", "q/r")));
    }

    @Test
    void aRestMatchesTheRestOfThePathSlashesAndAll() {
        var t = templates("/files/{path...}");
        assertThat(match(t, "/files/a/b/c.txt")).isEqualTo(Map.entry("/files/{path...}", Map.of("path", "a/b/c.txt")));
        assertThat(match(t, "/files/")).isEqualTo(Map.entry("/files/{path...}", Map.of("path", "")));
        assertThat(match(t, "/files/a/")).isEqualTo(Map.entry("/files/{path...}", Map.of("path", "a/")));
        assertThat(match(t, "/files")).isNull();
    }

    @Test
    void aVariableWinsOverARest() {
        var t = templates("/f/{all...}", "/f/{one}");
        assertThat(match(t, "/f/x").getKey()).isEqualTo("/f/{one}");
        assertThat(match(t, "/f/x/y").getKey()).isEqualTo("/f/{all...}");
    }

    @Test
    void aPrefixMatchesEveryPathUnderItTheLongestWinsAndItCapturesNothing() {
        var t = templates("/files/*", "/files/special/*", "/*", "/users/{id}/*");
        assertThat(match(t, "/files/a/b")).isEqualTo(Map.entry("/files/*", Map.of()));
        assertThat(match(t, "/files/")).isEqualTo(Map.entry("/files/*", Map.of()));
        assertThat(match(t, "/files/special/x")).isEqualTo(Map.entry("/files/special/*", Map.of()));
        assertThat(match(t, "/files/special")).isEqualTo(Map.entry("/files/*", Map.of()));
        assertThat(match(t, "/files")).isEqualTo(Map.entry("/*", Map.of()));
        assertThat(match(t, "/users/7/avatar.png")).isEqualTo(Map.entry("/users/{id}/*", Map.of("id", "7")));
        assertThat(match(t, "/users/7")).isEqualTo(Map.entry("/*", Map.of()));
        assertThat(match(t, "example.com:443")).as("a CONNECT's authority is no path").isNull();
        assertThat(match(t, "")).isNull();
    }

    @Test
    void aLiteralAmongManyIsFoundByItsHashAndOnlyAnEqualOneMatches() {
        String[] patterns = new String[40];
        for (int i = 0; i < patterns.length; i++) patterns[i] = "/api/r" + i + "/{id}";
        var t = templates(patterns);
        for (int i = 0; i < patterns.length; i++) {
            assertThat(match(t, "/api/r" + i + "/x")).isEqualTo(Map.entry(patterns[i], Map.of("id", "x")));
        }
        assertThat(match(t, "/api/r40/x")).isNull();
        assertThat(match(t, "/api/R1/x")).isNull();
        assertThat(match(t, "/api/r1")).isNull();
        // "Aa" and "BB" have the same String hash: the table must compare the text too
        var colliding = templates("/Aa/{x}", "/BB/{x}", "/c/{x}", "/d/{x}", "/e/{x}", "/f/{x}");
        assertThat(match(colliding, "/Aa/1").getKey()).isEqualTo("/Aa/{x}");
        assertThat(match(colliding, "/BB/1").getKey()).isEqualTo("/BB/{x}");
    }

    @Test
    void typedValuesParseOrAnswer400() {
        var t = templates("/n/{id}");
        PathParameters captures = new PathParameters();
        captures.reset("/n/123");
        t.match("/n/123", captures);
        assertThat(captures.getInt("id")).isEqualTo(123);
        assertThat(captures.getLong("id")).isEqualTo(123L);
        assertThat(captures.get("other")).isNull();
        assertThatThrownBy(() -> captures.getInt("other")).isInstanceOf(IllegalArgumentException.class);

        captures.reset("/n/12x");
        t.match("/n/12x", captures);
        assertThatThrownBy(() -> captures.getLong("id")).isInstanceOfSatisfying(HttpStatusException.class,
                e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> captures.get("id", java.util.UUID::fromString)).isInstanceOf(HttpStatusException.class);
    }

    @Test
    void malformedTemplatesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> templates("/a/{x}b")).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> templates("/a/{}")).hasMessageContaining("name");
        assertThatThrownBy(() -> templates("/a/{x/y}")).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> templates("/a/{x}/{x}")).hasMessageContaining("named twice");
        assertThatThrownBy(() -> templates("/a/{rest...}/b")).hasMessageContaining("last segment");
        assertThatThrownBy(() -> templates("/a/{na me}")).hasMessageContaining("name");
    }

    @Test
    void theShapeIgnoresNames() {
        assertThat(PathTemplates.shape("/users/{id}/p/{rest...}")).isEqualTo("/users/{}/p/{...}");
        assertThat(PathTemplates.shape("/users/{x}")).isEqualTo(PathTemplates.shape("/users/{y}"));
    }

    @Test
    void aRouterRefusesTwoTemplatesMatchingTheSamePaths() {
        Handler ok = (req, res) -> res.send("ok");
        assertThatThrownBy(() -> Router.builder().get("/u/{a}", ok).get("/u/{b}", ok))
                .hasMessageContaining("match the same paths");
        assertThatThrownBy(() -> Router.builder().get("/u/{a}", ok).get("/u/{a}", ok)).hasMessageContaining("twice");
        assertThatThrownBy(() -> Router.builder().get("/u/*", ok).get("/u/{rest...}", ok)).hasMessageContaining("match the same paths");
        Router.builder().get("/u/{a}", ok).post("/u/{a}", ok).build(); // one template, two methods
    }
}
