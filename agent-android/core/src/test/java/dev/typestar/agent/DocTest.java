package dev.typestar.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Ties PROTOCOL.md to the code: its Timer example and its table of error codes must stay true. */
public class DocTest {
    private static String doc() throws IOException {
        return new String(Files.readAllBytes(Paths.get(System.getProperty("typestar.protocolDoc"))), StandardCharsets.UTF_8);
    }

    @Test
    public void timerExampleInTheDocIsTheTestedOne() throws Exception {
        String doc = doc();
        int section = doc.indexOf("## 11. Complete example");
        Check.isTrue(section >= 0, "PROTOCOL.md has section 11");
        int start = doc.indexOf("```json\n", section) + "```json\n".length();
        int end = doc.indexOf("```", start);
        Check.equal(Json.parse(Experiments.TIMER), Json.parse(doc.substring(start, end)), "§11 vs examples/java.util.Timer.json");
    }

    @Test
    public void everyErrorCodeIsDocumentedAndEveryDocumentedCodeExists() throws Exception {
        String doc = doc();
        int section = doc.indexOf("## 9. Errors");
        int end = doc.indexOf("## 10.", section);
        Set<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("\\n\\| `([a-z-]+)` \\|").matcher(doc.substring(section, end));
        while (row.find()) {
            documented.add(row.group(1));
        }
        Set<String> used = new TreeSet<>();
        Pattern thrown = Pattern.compile("new RequestException\\(\\s*\"([a-z-]+)\"");
        Pattern conditional = Pattern.compile("\\? \"([a-z-]+-not-found|bad-argument)\"");
        Path sources = Paths.get(System.getProperty("typestar.protocolDoc")).getParent().resolve("core/src/main/java");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
        }
        for (Path file : files) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            for (Pattern p : new Pattern[] {thrown, conditional}) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        Check.isTrue(documented.containsAll(used), "undocumented codes: " + minus(used, documented));
        Check.isTrue(used.containsAll(documented), "documented but never produced: " + minus(documented, used));
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
