import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The little JSON the protocol needs (the JDK has none): objects, arrays, strings, numbers, true/false/null. */
final class Json {
    /** JSON null, distinct from a missing key. */
    static final Object NULL = new Object() {
        @Override public String toString() { return "null"; }
    };

    /** A number as written, so that an integer id is echoed digit for digit whatever its size. */
    record Num(String text) {
        boolean isInteger() { return text.matches("-?(0|[1-9][0-9]*)"); }
        @Override public String toString() { return text; }
    }

    static final class Malformed extends Exception {
        Malformed(String message) { super(message); }
    }

    private final String text;
    private int at;

    private Json(String text) { this.text = text; }

    static Object parse(String text) throws Malformed {
        Json json = new Json(text);
        json.space();
        Object value = json.value(0);
        json.space();
        if (json.at != text.length()) throw new Malformed("unexpected text after the JSON value at column " + (json.at + 1));
        return value;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    private Malformed error(String what) {
        return new Malformed(what + " at column " + (at + 1));
    }

    private Object value(int depth) throws Malformed {
        if (depth > 64) throw error("nested too deeply");
        if (at >= text.length()) throw error("unexpected end of the line");
        char c = text.charAt(at);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': return word("true", Boolean.TRUE);
            case 'f': return word("false", Boolean.FALSE);
            case 'n': return word("null", NULL);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected character '" + c + "'");
        }
    }

    private Object word(String word, Object value) throws Malformed {
        if (!text.startsWith(word, at)) throw error("expected " + word);
        at += word.length();
        return value;
    }

    private Num number() throws Malformed {
        int start = at;
        if (text.charAt(at) == '-') at++;
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) at++;
        String raw = text.substring(start, at);
        if (!raw.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw error("malformed number " + raw);
        return new Num(raw);
    }

    private String string() throws Malformed {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) throw error("unterminated string");
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("control character in a string");
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) throw error("unterminated string");
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) throw error("short \\u escape");
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private List<Object> array(int depth) throws Malformed {
        List<Object> items = new ArrayList<>();
        at++;
        space();
        if (at < text.length() && text.charAt(at) == ']') {
            at++;
            return items;
        }
        while (true) {
            space();
            items.add(value(depth + 1));
            space();
            if (at >= text.length()) throw error("unterminated array");
            char c = text.charAt(at++);
            if (c == ']') return items;
            if (c != ',') throw error("expected , or ] in an array");
        }
    }

    private Map<String, Object> object(int depth) throws Malformed {
        Map<String, Object> fields = new LinkedHashMap<>();
        at++;
        space();
        if (at < text.length() && text.charAt(at) == '}') {
            at++;
            return fields;
        }
        while (true) {
            space();
            if (at >= text.length() || text.charAt(at) != '"') throw error("expected a key");
            String key = string();
            space();
            if (at >= text.length() || text.charAt(at++) != ':') throw error("expected :");
            space();
            fields.put(key, value(depth + 1));
            space();
            if (at >= text.length()) throw error("unterminated object");
            char c = text.charAt(at++);
            if (c == '}') return fields;
            if (c != ',') throw error("expected , or } in an object");
        }
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null || value == NULL) {
            out.append("null");
        } else if (value instanceof String s) {
            out.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                        else out.append(c);
                    }
                }
            }
            out.append('"');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(", ");
                first = false;
                write(String.valueOf(entry.getKey()), out);
                out.append(": ");
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(", ");
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            out.append(value);  // Boolean, Integer, Num
        }
    }
}
