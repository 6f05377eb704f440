package dev.petrel.http;

/**
 * Splits a request-target into its form, path, query and authority (RFC 9112 section 3.2), and
 * checks that the form suits the method: authority-form only with CONNECT, asterisk-form only
 * with OPTIONS.
 */
final class RequestTargets {
    private RequestTargets() {}

    /** Fills the target fields of {@code head}; returns the error, or {@code null} when the target is valid. */
    static HttpError interpret(RequestHead head) {
        String target = head.target;
        String method = head.method;
        if (Methods.CONNECT.equals(method)) {
            return authorityForm(head, target);
        }
        char first = target.charAt(0);
        if (first == '/') {
            head.form = TargetForm.ORIGIN;
            splitPathAndQuery(head, target, 0);
            return null;
        }
        if (target.equals("*")) {
            if (!Methods.OPTIONS.equals(method)) return HttpError.badRequest("Asterisk-form target is only for OPTIONS");
            head.form = TargetForm.ASTERISK;
            head.rawPath = "*";
            return null;
        }
        return absoluteForm(head, target);
    }

    private static HttpError authorityForm(RequestHead head, String target) {
        // authority-form = uri-host ":" port; no userinfo, path or query
        int colon = target.lastIndexOf(':');
        if (colon <= 0 || colon == target.length() - 1 || target.indexOf('/') >= 0 || target.indexOf('@') >= 0
                || target.indexOf('?') >= 0 || !isPort(target, colon + 1, target.length()) || !isUriHost(target, colon)) {
            return HttpError.badRequest("CONNECT needs an authority-form target (host:port)");
        }
        head.form = TargetForm.AUTHORITY;
        head.authority = target;
        return null;
    }

    /** uri-host before {@code end}: a reg-name or IPv4 address, or an IP literal such as {@code [::1]}. */
    private static boolean isUriHost(String target, int end) {
        if (target.charAt(0) == '[') return target.charAt(end - 1) == ']' && isAuthority(target, 0, end);
        return isHost(target, 0, end);
    }

    private static HttpError absoluteForm(RequestHead head, String target) {
        int schemeEnd = target.indexOf("://");
        if (schemeEnd <= 0) return HttpError.badRequest("Invalid request target");
        String scheme = target.substring(0, schemeEnd);
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            return HttpError.badRequest("Absolute-form target with a scheme other than http or https");
        }
        int authorityStart = schemeEnd + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < target.length() && target.charAt(authorityEnd) != '/' && target.charAt(authorityEnd) != '?') {
            authorityEnd++;
        }
        // RFC 9110 section 4.2.1: an http URI with an empty host is invalid; userinfo is deprecated and refused.
        if (authorityEnd == authorityStart || target.lastIndexOf('@', authorityEnd - 1) >= authorityStart) {
            return HttpError.badRequest("Absolute-form target needs a host and no userinfo");
        }
        if (!isAuthority(target, authorityStart, authorityEnd)) return HttpError.badRequest("Invalid host in the request target");
        head.form = TargetForm.ABSOLUTE;
        head.authority = target.substring(authorityStart, authorityEnd);
        if (authorityEnd == target.length()) {
            head.rawPath = "/";
        } else if (target.charAt(authorityEnd) == '?') {
            head.rawPath = "/";
            head.query = target.substring(authorityEnd + 1);
        } else {
            splitPathAndQuery(head, target, authorityEnd);
        }
        return null;
    }

    private static void splitPathAndQuery(RequestHead head, String target, int pathStart) {
        int question = target.indexOf('?', pathStart);
        if (question < 0) {
            head.rawPath = pathStart == 0 ? target : target.substring(pathStart);
        } else {
            head.rawPath = target.substring(pathStart, question);
            head.query = target.substring(question + 1);
        }
    }

    /** host [ ":" port ], where host is a reg-name, IPv4 address or bracketed IP literal. */
    static boolean isAuthority(CharSequence s, int start, int end) {
        if (start == end) return false;
        int hostEnd = end;
        if (s.charAt(start) == '[') {
            int close = indexOf(s, ']', start, end);
            if (close < 0) return false;
            for (int i = start + 1; i < close; i++) {
                char c = s.charAt(i);
                if (!(isHexDigit(c) || c == ':' || c == '.' || c == 'v' || c == 'V')) return false;
            }
            if (close == end - 1) return true;
            return s.charAt(close + 1) == ':' && isPort(s, close + 2, end);
        }
        int colon = indexOf(s, ':', start, end);
        if (colon >= 0) {
            if (!isPort(s, colon + 1, end)) return false;
            hostEnd = colon;
        }
        return isHost(s, start, hostEnd);
    }

    private static boolean isHost(CharSequence s, int start, int end) {
        if (start == end) return false;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            // reg-name = *( unreserved / pct-encoded / sub-delims )
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-._~%!$&'()*+,;=".indexOf(c) >= 0;
            if (!ok) return false;
        }
        return true;
    }

    private static boolean isPort(CharSequence s, int start, int end) {
        if (end - start > 5) return false; // empty port is allowed by RFC 3986
        for (int i = start; i < end; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        }
        return true;
    }

    private static boolean isHexDigit(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int indexOf(CharSequence s, char c, int start, int end) {
        for (int i = start; i < end; i++) {
            if (s.charAt(i) == c) return i;
        }
        return -1;
    }
}
