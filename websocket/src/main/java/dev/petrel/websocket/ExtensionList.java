package dev.petrel.websocket;

import java.util.ArrayList;
import java.util.List;

/**
 * The elements of {@code Sec-WebSocket-Extensions} header values (RFC 6455 section 9.1):
 *
 * <pre>
 * extension-list = 1#extension
 * extension      = extension-token *( ";" extension-param )
 * extension-param = token [ "=" (token | quoted-string) ]
 * </pre>
 *
 * <p>Several values (several header lines) read as one list. An element that breaks this grammar
 * (a stray character, an unclosed quote, a quoted value that is not a token once unescaped, as
 * section 9.1 requires) is kept, marked malformed, so that the one offer it was is declined while
 * the others still count; the list goes on after the next comma outside quotes. Empty elements
 * (",,") are skipped, as the list rule allows (RFC 9110 section 5.6.1).
 */
final class ExtensionList {
    /** One parameter: {@code value} is null when it had none, unquoted when it was quoted. */
    record Param(String name, String value) {}

    /** One element: its name and parameters in order, or {@code malformed}. */
    record Element(String name, List<Param> params, boolean malformed) {}

    private final String text;
    private int at;

    private ExtensionList(String text) {
        this.text = text;
    }

    /** The elements of all {@code values}, in order; null values are skipped. */
    static List<Element> parse(List<String> values) {
        List<Element> elements = new ArrayList<>();
        if (values == null) return elements;
        for (String value : values) {
            if (value != null) new ExtensionList(value).readInto(elements);
        }
        return elements;
    }

    private void readInto(List<Element> elements) {
        while (true) {
            skipSpace();
            while (at < text.length() && text.charAt(at) == ',') {
                at++;
                skipSpace();
            }
            if (at == text.length()) return;
            Element element = element();
            if (element == null) {
                elements.add(new Element(null, List.of(), true));
                skipToNextElement();
            } else {
                elements.add(element);
            }
        }
    }

    /** One element up to (not past) the comma or end that closes it; null when malformed. */
    private Element element() {
        String name = token();
        if (name == null) return null;
        List<Param> params = new ArrayList<>();
        while (true) {
            skipSpace();
            if (at == text.length() || text.charAt(at) == ',') return new Element(name, List.copyOf(params), false);
            if (text.charAt(at) != ';') return null;
            at++;
            skipSpace();
            String paramName = token();
            if (paramName == null) return null;
            skipSpace();
            String value = null;
            if (at < text.length() && text.charAt(at) == '=') {
                at++;
                skipSpace();
                value = at < text.length() && text.charAt(at) == '"' ? quotedToken() : token();
                if (value == null) return null;
            }
            params.add(new Param(paramName, value));
        }
    }

    private String token() {
        int start = at;
        while (at < text.length() && isTokenChar(text.charAt(at))) at++;
        return at > start ? text.substring(start, at) : null;
    }

    /** A quoted-string whose unescaped content must be a token (section 9.1); null otherwise. */
    private String quotedToken() {
        StringBuilder value = new StringBuilder();
        at++; // the opening quote
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                if (value.isEmpty()) return null;
                for (int i = 0; i < value.length(); i++) {
                    if (!isTokenChar(value.charAt(i))) return null;
                }
                return value.toString();
            }
            if (c == '\\') {
                if (at == text.length()) return null;
                c = text.charAt(at++);
            }
            value.append(c);
        }
        return null; // unclosed
    }

    /** Moves past the rest of a malformed element: to the next comma outside a quoted string. */
    private void skipToNextElement() {
        boolean quoted = false;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (quoted && c == '\\') {
                at += 2;
                continue;
            }
            if (c == '"') quoted = !quoted;
            else if (c == ',' && !quoted) return;
            at++;
        }
        at = text.length();
    }

    private void skipSpace() {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) at++;
    }

    /** tchar of RFC 9110 section 5.6.2. */
    static boolean isTokenChar(char c) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') return true;
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
