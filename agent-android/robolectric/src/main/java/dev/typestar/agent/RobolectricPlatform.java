package dev.typestar.agent;

import android.os.Build;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.jar.JarFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.internal.ShadowProvider;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What the agent runs on under Robolectric: the SDK level in {@code hello}, and in
 * {@code describe} whether a class is AOSP code or Robolectric's simulation of it, read from
 * Robolectric's shadow registry ({@code ServiceLoader<ShadowProvider>}: the shadow map and its
 * shadow pickers) for the class and each superclass below {@code Object}.
 *
 * <p>{@code code} is {@code "real"} when no shadow method applies at this SDK level,
 * {@code "calls-through"} when every shadow method that applies is one known to run the AOSP code
 * it intercepts ({@link #CALLS_THROUGH}), else {@code "simulated"}: what is learned is then
 * Robolectric's simulation of the class, not the class.
 *
 * <p>{@code origin} says whose bytecode the class is, from where its class loader finds it:
 * {@code "framework"} (the sandbox's android-all jar, AOSP code), {@code "jdk"} (a module of the
 * host JDK) or {@code "library"} (any other jar or folder, with its Maven coordinates when a
 * POM lies beside the jar, as in a Maven repository or a copy made with {@code copyPom}).
 */
final class RobolectricPlatform implements Platform {
    /**
     * Shadow methods that record something and then run the AOSP method they intercept, as read
     * in Robolectric 4.16.1's bytecode: ShadowCountDownTimer's (while the system property
     * robolectric.useRealCountDownTimer is true, its default) and ShadowPausedAsyncTask's
     * executeOnExecutor (which swaps in the executor {@link RobolectricExecutor} installs). Check
     * this list when moving to another Robolectric version.
     */
    private static final Set<String> CALLS_THROUGH = new LinkedHashSet<>(Arrays.asList(
            "org.robolectric.shadows.ShadowPausedAsyncTask#executeOnExecutor(java.util.concurrent.Executor,"
                    + " java.lang.Object[])"));
    private static final List<String> COUNT_DOWN_TIMER = Arrays.asList(
            "org.robolectric.shadows.ShadowCountDownTimer#start()",
            "org.robolectric.shadows.ShadowCountDownTimer#cancel()");

    static {
        if (Boolean.parseBoolean(System.getProperty("robolectric.useRealCountDownTimer", "true"))) {
            CALLS_THROUGH.addAll(COUNT_DOWN_TIMER);
        }
    }

    /** Shadows and shadow pickers by the canonical name of the class they stand for. */
    private final Map<String, String> shadows = new HashMap<>();
    private final Map<String, String> pickers = new HashMap<>();

    RobolectricPlatform() {
        for (ShadowProvider provider : ServiceLoader.load(ShadowProvider.class, getClass().getClassLoader())) {
            for (Map.Entry<String, String> entry : provider.getShadows()) {
                shadows.putIfAbsent(canonical(entry.getKey()), entry.getValue());
            }
            for (Map.Entry<String, String> entry : provider.getShadowPickerMap().entrySet()) {
                pickers.put(canonical(entry.getKey()), entry.getValue());
            }
        }
    }

    /** The registry's name of a class: nested classes with dots (android.os.PowerManager.WakeLock). */
    private static String canonical(String binaryName) {
        return binaryName.replace('$', '.');
    }

    @Override
    public Map<String, Object> about() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "robolectric");
        m.put("robolectric", System.getProperty("typestar.robolectric.version"));
        m.put("sdk", (long) Build.VERSION.SDK_INT);
        m.put("release", Build.VERSION.RELEASE);
        return m;
    }

    @Override
    public Map<String, Object> implementation(Class<?> type) {
        List<Object> found = new ArrayList<>();
        boolean intercepted = false;
        boolean simulated = false;
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Class<?> shadow = shadowOf(c);
            if (shadow == null) {
                continue;
            }
            List<Object> methods = new ArrayList<>();
            List<Object> through = new ArrayList<>();
            for (String method : implementations(shadow, c)) {
                methods.add(method);
                intercepted = true;
                if (CALLS_THROUGH.contains(shadow.getName() + "#" + method)) {
                    through.add(method);
                } else {
                    simulated = true;
                }
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("class", c.getName());
            entry.put("shadow", shadow.getName());
            entry.put("methods", methods);
            entry.put("callsThrough", through);
            found.add(entry);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", simulated ? "simulated" : intercepted ? "calls-through" : "real");
        m.put("sdk", (long) Build.VERSION.SDK_INT);
        m.put("shadows", found);
        m.put("origin", origin(type));
        return m;
    }

    /**
     * Whose bytecode {@code type} is: see the class comment. The sandbox loads a class from its
     * android-all jar whenever that jar holds it, whatever its class loader's
     * {@code getResource} answers (which may be the android-all jar on the outer class path).
     */
    private static Map<String, Object> origin(Class<?> type) {
        String resource = type.getName().replace('.', '/') + ".class";
        Map<String, Object> m = new LinkedHashMap<>();
        Path framework = RuntimeEnvironment.getAndroidFrameworkJarPath();
        try {
            if (framework != null && holds(framework, resource)) {
                m.put("kind", "framework");
                m.put("jar", framework.getFileName().toString());
                return m;
            }
            ClassLoader loader = type.getClassLoader();
            URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
            if (url == null) {
                throw new IllegalStateException("cannot find the bytecode of " + type.getName() + " (" + resource + ")");
            }
            switch (url.getProtocol()) {
                case "jrt":
                    m.put("kind", "jdk");
                    m.put("module", url.getPath().split("/")[1]);
                    return m;
                case "jar":
                    Path jar = Paths.get(((JarURLConnection) url.openConnection()).getJarFileURL().toURI());
                    m.put("kind", "library");
                    m.put("jar", jar.getFileName().toString());
                    m.put("maven", coordinates(jar));
                    return m;
                default:
                    m.put("kind", "library");
                    m.put("url", url.toString());
                    m.put("maven", null);
                    return m;
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot read where " + type.getName() + " comes from: " + e, e);
        }
    }

    /** Whether the jar {@code jar} has the entry {@code resource}. */
    private static boolean holds(Path jar, String resource) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getEntry(resource) != null;
        }
    }

    /**
     * {@code group:artifact:version} of the POM beside {@code jar} ({@code name.pom} for
     * {@code name.jar}, group and version inherited from its parent when absent), or null when
     * there is none.
     */
    private static String coordinates(Path jar) {
        String name = jar.getFileName().toString();
        if (!name.endsWith(".jar")) {
            return null;
        }
        Path pom = jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + ".pom");
        if (!Files.isRegularFile(pom)) {
            return null;
        }
        try {
            Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(pom.toFile()).getDocumentElement();
            Element parent = child(project, "parent");
            String group = text(project, "groupId", parent);
            String artifact = text(project, "artifactId", null);
            String version = text(project, "version", parent);
            if (group == null || artifact == null || version == null) {
                throw new IllegalStateException(pom + " names no groupId, artifactId and version");
            }
            return group + ":" + artifact + ":" + version;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Maven POM " + pom + ": " + e, e);
        }
    }

    /** The first child element of {@code parent} named {@code name}, or null. */
    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                return (Element) n;
            }
        }
        return null;
    }

    /** The trimmed text of {@code element}'s child {@code name}, else {@code fallback}'s, or null. */
    private static String text(Element element, String name, Element fallback) {
        Element found = child(element, name);
        if (found == null && fallback != null) {
            found = child(fallback, name);
        }
        return found == null ? null : found.getTextContent().trim();
    }

    /** The shadow Robolectric uses for {@code c} at this SDK level, or null. */
    private Class<?> shadowOf(Class<?> c) {
        Class<?> shadow = null;
        String name = canonical(c.getName());
        try {
            String picker = pickers.get(name);
            if (picker != null) {
                Object instance = Class.forName(picker, true, c.getClassLoader()).getDeclaredConstructor().newInstance();
                Method pick = instance.getClass().getMethod("pickShadowClass");
                pick.setAccessible(true);
                shadow = (Class<?>) pick.invoke(instance);
            } else if (shadows.containsKey(name)) {
                shadow = Class.forName(shadows.get(name), false, c.getClassLoader());
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot read Robolectric's shadow of " + c.getName() + ": " + e, e);
        }
        if (shadow == null) {
            return null;
        }
        Implements implementsAnnotation = shadow.getAnnotation(Implements.class);
        if (implementsAnnotation != null && !applies(implementsAnnotation.minSdk(), implementsAnnotation.maxSdk())) {
            return null;
        }
        return shadow;
    }

    /**
     * The methods of {@code real} that {@code shadow} (or a shadow superclass) implements at this
     * SDK level, as {@code name(T, …)}, sorted; constructors are {@code <init>}.
     */
    private static List<String> implementations(Class<?> shadow, Class<?> real) {
        Set<String> declared = new LinkedHashSet<>();
        for (Method m : real.getDeclaredMethods()) {
            declared.add(signature(m.getName(), m));
        }
        for (Constructor<?> k : real.getDeclaredConstructors()) {
            declared.add(signature("<init>", k));
        }
        Set<String> out = new java.util.TreeSet<>();
        for (Class<?> s = shadow; s != null && s != Object.class; s = s.getSuperclass()) {
            for (Method m : s.getDeclaredMethods()) {
                Implementation implementation = m.getAnnotation(Implementation.class);
                if (implementation == null || !applies(implementation.minSdk(), implementation.maxSdk())) {
                    continue;
                }
                String name = m.getName().equals("__constructor__") ? "<init>" : m.getName();
                String sig = signature(name, m);
                if (declared.contains(sig)) {
                    out.add(sig);
                }
            }
        }
        return new ArrayList<>(out);
    }

    private static String signature(String name, Executable e) {
        List<String> params = new ArrayList<>();
        for (Class<?> p : e.getParameterTypes()) {
            params.add(Types.name(p));
        }
        return name + "(" + String.join(", ", params) + ")";
    }

    private static boolean applies(int minSdk, int maxSdk) {
        int sdk = Build.VERSION.SDK_INT;
        return (minSdk <= 0 || sdk >= minSdk) && (maxSdk <= 0 || sdk <= maxSdk);
    }
}
