package dev.typestar.agent;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Unit tests of the JSON reader and writer. */
public class JsonTest {
    private static Object parse(String text) throws Exception {
        return Json.parse(text);
    }

    private static void rejects(String text, String messagePart) {
        try {
            Json.parse(text);
        } catch (Json.ParseException e) {
            Check.contains(e.getMessage(), messagePart);
            return;
        }
        throw new AssertionError("accepted invalid JSON: " + text);
    }

    @Test
    public void parsesScalars() throws Exception {
        Check.equal(null, parse("null"));
        Check.equal(true, parse(" true "));
        Check.equal(false, parse("false"));
        Check.equal(42L, parse("42"));
        Check.equal(-7L, parse("-7"));
        Check.equal(Long.MAX_VALUE, parse("9223372036854775807"));
        Check.equal(Long.MIN_VALUE, parse("-9223372036854775808"));
        Check.equal(1.5, parse("1.5"));
        Check.equal(1e3, parse("1E3"));
        Check.equal(-0.25e-2, parse("-0.25e-2"));
        Check.equal("", parse("\"\""));
    }

    @Test
    public void parsesNestedStructuresInOrder() throws Exception {
        Map<String, Object> m = Check.obj(parse("{\"b\": [1, {\"c\": null}], \"a\": {}}"));
        Check.equal(Arrays.asList("b", "a"), Arrays.asList(m.keySet().toArray()));
        List<Object> b = Check.list(m.get("b"));
        Check.equal(1L, b.get(0));
        Check.isTrue(Check.obj(b.get(1)).containsKey("c"), "null member kept");
        Check.equal(new LinkedHashMap<>(), m.get("a"));
    }

    @Test
    public void decodesEscapesAndSurrogatePairs() throws Exception {
        Check.equal("a\"b\\c/d\b\f\n\r\t", parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""));
        Check.equal("\u00e9\ud83d\ude00", parse("\"\\u00e9\\ud83d\\ude00\""));
        Check.equal("\u00e9\ud83d\ude00", parse("\"\u00e9\ud83d\ude00\""));
    }

    @Test
    public void rejectsInvalidInput() {
        rejects("", "unexpected end");
        rejects("{", "expected a string key");
        rejects("{\"a\" 1}", "expected ':'");
        rejects("{\"a\":1,}", "expected a string key");
        rejects("[1,]", "unexpected character");
        rejects("[1 2]", "expected ',' or ']'");
        rejects("{\"a\":1,\"a\":2}", "duplicate key \"a\"");
        rejects("\"abc", "unterminated string");
        rejects("\"a\nb\"", "control character");
        rejects("\"\\x\"", "invalid escape");
        rejects("\"\\u12G4\"", "invalid hex digit");
        rejects("01", "trailing content");
        rejects("1.", "expected digit after decimal point");
        rejects("1e", "expected digit in exponent");
        rejects("-", "invalid number");
        rejects("tru", "expected true");
        rejects("9223372036854775808", "outside the 64-bit range");
        rejects("1e999", "outside the double range");
        rejects("{} {}", "trailing content");
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i <= Json.MAX_DEPTH; i++) {
            deep.append('[');
        }
        rejects(deep.toString(), "nesting deeper");
    }

    @Test
    public void writesCompactEscapedSingleLines() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "line1\nline2\t\"q\"\\ \u0001 \u2028");
        m.put("n", Arrays.asList(1L, 2, 1.5, 3.0, null, true));
        Check.equal("{\"s\":\"line1\\nline2\\t\\\"q\\\"\\\\ \\u0001 \\u2028\",\"n\":[1,2,1.5,3.0,null,true]}",
                Json.write(m));
        Check.equal("\"\\udc00x\"", Json.write("\udc00x"));
        Check.equal("\"\ud83d\ude00\"", Json.write("\ud83d\ude00"));
    }

    @Test
    public void roundTrips() throws Exception {
        String text = "{\"a\":[1,-2,0.5,\"x\\u0000y\",{\"b\":false}],\"c\":null,\"d\":\"\u00fc\\ud83d\\ude00\"}";
        Object once = parse(text);
        Check.equal(once, parse(Json.write(once)));
    }

    @Test
    public void refusesNonJsonValues() {
        try {
            Json.write(Double.NaN);
            throw new AssertionError("NaN written");
        } catch (IllegalArgumentException expected) {
            Check.contains(expected.getMessage(), "NaN");
        }
        try {
            Json.write(new Object());
            throw new AssertionError("Object written");
        } catch (IllegalArgumentException expected) {
            Check.contains(expected.getMessage(), "not a JSON value");
        }
    }
}
