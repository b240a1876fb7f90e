//! What the checker knows of the Java and Android platforms beyond the typestate library.
//!
//! It knows the supertypes of common platform classes: a `FileInputStream` is an `InputStream`, a `List` an `Iterable`, an `AppCompatActivity` an `Activity`.
//! So subclasses of protocol classes and Android components are recognised without the SDK.

/// `(class, direct supertype)` pairs, fully qualified.
const SUPERTYPES: &[(&str, &str)] = &[
    // java.io
    ("java.io.FileInputStream", "java.io.InputStream"),
    ("java.io.FilterInputStream", "java.io.InputStream"),
    ("java.io.BufferedInputStream", "java.io.FilterInputStream"),
    ("java.io.DataInputStream", "java.io.FilterInputStream"),
    ("java.io.ByteArrayInputStream", "java.io.InputStream"),
    ("java.io.ObjectInputStream", "java.io.InputStream"),
    ("java.io.PipedInputStream", "java.io.InputStream"),
    ("java.io.SequenceInputStream", "java.io.InputStream"),
    ("java.util.zip.ZipInputStream", "java.io.FilterInputStream"),
    ("java.util.zip.GZIPInputStream", "java.io.FilterInputStream"),
    ("java.io.FileOutputStream", "java.io.OutputStream"),
    ("java.io.FilterOutputStream", "java.io.OutputStream"),
    ("java.io.BufferedOutputStream", "java.io.FilterOutputStream"),
    ("java.io.DataOutputStream", "java.io.FilterOutputStream"),
    ("java.io.PrintStream", "java.io.FilterOutputStream"),
    ("java.io.ByteArrayOutputStream", "java.io.OutputStream"),
    ("java.io.ObjectOutputStream", "java.io.OutputStream"),
    ("java.io.PipedOutputStream", "java.io.OutputStream"),
    (
        "java.util.zip.ZipOutputStream",
        "java.io.FilterOutputStream",
    ),
    (
        "java.util.zip.GZIPOutputStream",
        "java.io.FilterOutputStream",
    ),
    ("java.io.InputStreamReader", "java.io.Reader"),
    ("java.io.FileReader", "java.io.InputStreamReader"),
    ("java.io.BufferedReader", "java.io.Reader"),
    ("java.io.LineNumberReader", "java.io.BufferedReader"),
    ("java.io.StringReader", "java.io.Reader"),
    ("java.io.CharArrayReader", "java.io.Reader"),
    ("java.io.PipedReader", "java.io.Reader"),
    ("java.io.OutputStreamWriter", "java.io.Writer"),
    ("java.io.FileWriter", "java.io.OutputStreamWriter"),
    ("java.io.BufferedWriter", "java.io.Writer"),
    ("java.io.PrintWriter", "java.io.Writer"),
    ("java.io.StringWriter", "java.io.Writer"),
    ("java.io.CharArrayWriter", "java.io.Writer"),
    ("java.io.PipedWriter", "java.io.Writer"),
    // java.util and kotlin.collections
    ("java.util.ListIterator", "java.util.Iterator"),
    ("java.util.Collection", "java.lang.Iterable"),
    ("java.util.List", "java.util.Collection"),
    ("java.util.Set", "java.util.Collection"),
    ("java.util.Queue", "java.util.Collection"),
    ("java.util.Deque", "java.util.Queue"),
    ("java.util.ArrayList", "java.util.List"),
    ("java.util.LinkedList", "java.util.List"),
    ("java.util.Vector", "java.util.List"),
    ("java.util.HashSet", "java.util.Set"),
    ("java.util.LinkedHashSet", "java.util.Set"),
    ("java.util.TreeSet", "java.util.Set"),
    ("java.util.ArrayDeque", "java.util.Deque"),
    ("java.util.PriorityQueue", "java.util.Queue"),
    (
        "java.util.concurrent.CopyOnWriteArrayList",
        "java.util.List",
    ),
    ("kotlin.collections.Iterable", "java.lang.Iterable"),
    ("kotlin.collections.MutableIterable", "java.lang.Iterable"),
    ("kotlin.collections.Collection", "java.lang.Iterable"),
    ("kotlin.collections.MutableCollection", "java.lang.Iterable"),
    ("kotlin.collections.List", "java.lang.Iterable"),
    ("kotlin.collections.MutableList", "java.lang.Iterable"),
    ("kotlin.collections.Set", "java.lang.Iterable"),
    ("kotlin.collections.MutableSet", "java.lang.Iterable"),
    ("kotlin.collections.ArrayList", "java.lang.Iterable"),
    ("kotlin.collections.HashSet", "java.lang.Iterable"),
    ("java.util.HashMap", "java.util.Map"),
    ("java.util.LinkedHashMap", "java.util.HashMap"),
    ("java.util.TreeMap", "java.util.Map"),
    ("java.util.WeakHashMap", "java.util.Map"),
    ("java.util.concurrent.ConcurrentHashMap", "java.util.Map"),
    ("kotlin.collections.MutableMap", "kotlin.collections.Map"),
    (
        "kotlin.collections.HashMap",
        "kotlin.collections.MutableMap",
    ),
    (
        "kotlin.collections.LinkedHashMap",
        "kotlin.collections.MutableMap",
    ),
    ("kotlin.collections.Iterator", "java.util.Iterator"),
    ("kotlin.collections.MutableIterator", "java.util.Iterator"),
    ("kotlin.collections.ListIterator", "java.util.Iterator"),
    (
        "kotlin.collections.MutableListIterator",
        "java.util.Iterator",
    ),
    // Android components and contexts
    ("android.content.ContextWrapper", "android.content.Context"),
    (
        "android.view.ContextThemeWrapper",
        "android.content.ContextWrapper",
    ),
    ("android.app.Activity", "android.view.ContextThemeWrapper"),
    ("android.app.Service", "android.content.ContextWrapper"),
    ("android.app.Application", "android.content.ContextWrapper"),
    ("android.app.IntentService", "android.app.Service"),
    ("android.app.ListActivity", "android.app.Activity"),
    ("android.app.FragmentActivity", "android.app.Activity"),
    (
        "androidx.core.app.ComponentActivity",
        "android.app.Activity",
    ),
    (
        "androidx.activity.ComponentActivity",
        "androidx.core.app.ComponentActivity",
    ),
    (
        "androidx.fragment.app.FragmentActivity",
        "androidx.activity.ComponentActivity",
    ),
    (
        "androidx.appcompat.app.AppCompatActivity",
        "androidx.fragment.app.FragmentActivity",
    ),
    (
        "android.support.v4.app.FragmentActivity",
        "android.app.Activity",
    ),
    (
        "android.support.v7.app.AppCompatActivity",
        "android.support.v4.app.FragmentActivity",
    ),
    ("android.app.DialogFragment", "android.app.Fragment"),
    (
        "androidx.fragment.app.DialogFragment",
        "androidx.fragment.app.Fragment",
    ),
    (
        "android.support.v4.app.DialogFragment",
        "android.support.v4.app.Fragment",
    ),
    ("androidx.lifecycle.LifecycleService", "android.app.Service"),
];

/// The direct supertypes the platform table records for `fqn`.
pub fn supertypes(fqn: &str) -> impl Iterator<Item = &'static str> + '_ {
    SUPERTYPES
        .iter()
        .filter(move |(class, _)| *class == fqn)
        .map(|(_, sup)| *sup)
}

/// Every class the platform table names, as a class or as a supertype (with repeats).
pub fn classes() -> impl Iterator<Item = &'static str> {
    SUPERTYPES.iter().flat_map(|(class, sup)| [*class, *sup])
}

/// Whether the platform table names `fqn` (as a class or as a supertype).
pub fn is_known(fqn: &str) -> bool {
    SUPERTYPES
        .iter()
        .any(|(class, sup)| *class == fqn || *sup == fqn)
}

/// Platform methods that write to or read from the streams passed to them and neither keep
/// nor close them, as `(class, method, arity)`: the caller still owns each argument.
/// Each entry is a claim from the platform's documentation, not learned from running code:
/// - `Bitmap.compress`: "Write a compressed version of the bitmap to the specified outputstream" (Android API reference).
/// - `YuvImage.compressToJpeg`: "Compress a rectangle region in the YuvImage to a jpeg", written to `stream` (Android API reference).
/// - `PdfDocument.writeTo`: "Writes the document to an output stream. You can call this method multiple times" (Android API reference).
/// - `ByteArrayOutputStream.writeTo`: writes "as if by calling the output stream's write method" (Java SE API).
/// - `InputStream.transferTo`: "This method does not close either stream" (Java SE API).
const BORROWING_METHODS: &[(&str, &str, usize)] = &[
    ("android.graphics.Bitmap", "compress", 3),
    ("android.graphics.YuvImage", "compressToJpeg", 3),
    ("android.graphics.pdf.PdfDocument", "writeTo", 1),
    ("java.io.ByteArrayOutputStream", "writeTo", 1),
    ("java.io.InputStream", "transferTo", 1),
];

/// Whether calling `method` with `arity` arguments on an object of class `class` (or of a
/// platform subclass, [`supertypes`]) leaves its arguments to the caller ([`BORROWING_METHODS`]).
pub fn borrows_arguments(class: &str, method: &str, arity: usize) -> bool {
    let mut todo = vec![class];
    while let Some(next) = todo.pop() {
        if BORROWING_METHODS.contains(&(next, method, arity)) {
            return true;
        }
        todo.extend(supertypes(next).map(|sup| -> &str { sup }));
    }
    false
}

/// Protocol callins that return the object they are called on, as `(class, method, arity)`:
/// `timer = new CountDownTimer(..) {..}.start()` stores the started timer itself.
/// Each entry is a claim from the platform's source, not learned from running code:
/// - `CountDownTimer.start`: "public synchronized final CountDownTimer start()" ends with `return this;` (AOSP `core/java/android/os/CountDownTimer.java`).
const SELF_RETURNING_METHODS: &[(&str, &str, usize)] = &[("android.os.CountDownTimer", "start", 0)];

/// Whether calling `method` with `arity` arguments on an object of class `class` returns
/// that object ([`SELF_RETURNING_METHODS`]).
pub fn returns_receiver(class: &str, method: &str, arity: usize) -> bool {
    SELF_RETURNING_METHODS.contains(&(class, method, arity))
}

/// Platform methods declared to return `Object` (or a supertype) whose result a client types
/// only by a cast: a library creator bound to one of them applies only where the cast or the
/// declared type names the protocol class.
const UNTYPED_FACTORIES: &[(&str, &str)] = &[("android.content.Context", "getSystemService")];

/// Whether `class.method` returns an object whose class only a cast tells.
pub fn is_untyped_factory(class: &str, method: &str) -> bool {
    UNTYPED_FACTORIES.contains(&(class, method))
}

/// Platform methods that hand a task over to run once, as `(class, methods)`.
/// The repeating ones (`scheduleAtFixedRate`) are not among them.
/// Each entry is a claim from the platform's documentation, not learned from running code:
/// - `Executor.execute`: "Executes the given command at some time in the future" (Java SE API).
/// - `ExecutorService.submit`: "Submits a Runnable task for execution" (Java SE API).
/// - `ScheduledExecutorService.schedule`: "Submits a one-shot task that becomes enabled after the given delay" (Java SE API).
/// - `Handler.post*`: "Causes the Runnable r to be added to the message queue" (Android API reference).
/// - `View.post*`: "Causes the Runnable to be added to the message queue" (Android API reference).
/// - `Activity.runOnUiThread`: "Runs the specified action on the UI thread", at once or posted (Android API reference).
const HANDOFF_METHODS: &[(&str, &[&str])] = &[
    ("java.util.concurrent.Executor", &["execute"]),
    (
        "java.util.concurrent.ExecutorService",
        &["execute", "submit"],
    ),
    (
        "java.util.concurrent.ScheduledExecutorService",
        &["execute", "submit", "schedule"],
    ),
    (
        "java.util.concurrent.ThreadPoolExecutor",
        &["execute", "submit"],
    ),
    (
        "java.util.concurrent.ScheduledThreadPoolExecutor",
        &["execute", "submit", "schedule"],
    ),
    (
        "android.os.Handler",
        &["post", "postDelayed", "postAtTime", "postAtFrontOfQueue"],
    ),
    (
        "android.view.View",
        &[
            "post",
            "postDelayed",
            "postOnAnimation",
            "postOnAnimationDelayed",
        ],
    ),
    ("android.app.Activity", &["runOnUiThread"]),
];

/// Whether calling `method` on an object that `is_a` some class hands its task argument over
/// to run once ([`HANDOFF_METHODS`]).
pub fn hands_off(is_a: impl Fn(&str) -> bool, method: &str) -> bool {
    HANDOFF_METHODS
        .iter()
        .any(|(class, methods)| methods.contains(&method) && is_a(class))
}
