//! Harness classes written by `typestar draft`.
//! A harness is Java source for a concrete subclass of an abstract class (or a class with `on…` hooks).
//! It reports each callback method to the agent (agent-android/PROTOCOL.md §6).
//! So callbacks delivered by overriding need no hand-written code.
//!
//! A harness mirrors every public or protected constructor of its class.
//! It overrides each callback method to report it by its callback symbol.
//! Then it calls the inherited method (or returns the type's default value for an abstract one).
//! Types are erased: the subclass
//! extends the raw class, which javac accepts for overriding generic methods.

use std::fmt::Write as _;

/// A Java type in `describe`'s wire form (`java.util.Map$Entry`, `int[]`).
type WireType = str;

/// One method a harness overrides to report a callback.
#[derive(Clone, Debug)]
pub(crate) struct HarnessCallback {
    /// The callback symbol it reports.
    pub symbol: String,
    /// The Java method.
    pub method: String,
    /// Its parameter types.
    pub params: Vec<String>,
    /// Its return type (`void` for none).
    pub returns: String,
    /// Its checked exceptions.
    pub throws: Vec<String>,
    /// Whether it is abstract: nothing to call after reporting.
    pub is_abstract: bool,
    /// Whether it is protected (an override keeps the access it had).
    pub is_protected: bool,
}

/// A constructor of the class a harness calls through `super(…)`.
#[derive(Clone, Debug)]
pub(crate) struct HarnessConstructor {
    /// Its parameter types.
    pub params: Vec<String>,
    /// Its checked exceptions.
    pub throws: Vec<String>,
}

/// A harness class to write next to the experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessSource {
    /// The file name, relative to the experiment's folder (`ReportingTimerTask.java`).
    pub file_name: String,
    /// The class's binary name, as the experiment's `new` names it.
    pub class: String,
    /// The Java source.
    pub source: String,
}

/// The package of drafted harnesses.
const PACKAGE: &str = "typestar.harness";

/// The harness of `class` (a binary name), reporting `callbacks`.
pub(crate) fn harness_source(
    class: &str,
    constructors: &[HarnessConstructor],
    callbacks: &[HarnessCallback],
) -> HarnessSource {
    let simple = format!(
        "Reporting{}",
        class.rsplit('.').next().unwrap_or(class).replace('$', "_")
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Harness for {class}, written by `typestar draft`: it reports each callback method to the\n\
         // agent (agent-android/PROTOCOL.md §6). The experiment names this file in `harness`, and the\n\
         // JVM backend compiles it before learning. Edit it if a callback needs a different reaction."
    );
    let _ = writeln!(out, "package {PACKAGE};\n");
    let _ = writeln!(out, "import dev.typestar.agent.Callbacks;\n");
    let _ = writeln!(
        out,
        "@SuppressWarnings({{\"rawtypes\", \"unchecked\"}})\npublic class {simple} extends {} {{",
        source_type(class)
    );
    let _ = writeln!(
        out,
        "    // Bound to the query being built; a callback during the superclass constructor, before\n    \
         // this field is set, is not reported.\n    \
         private final Callbacks.Reporter reporter = Callbacks.reporter();"
    );
    for constructor in constructors {
        let _ = writeln!(
            out,
            "\n    public {simple}({}){} {{\n        super({});\n    }}",
            parameters(&constructor.params),
            throws(&constructor.throws),
            arguments(constructor.params.len())
        );
    }
    for callback in callbacks {
        write_override(&mut out, callback);
    }
    out.push_str("}\n");
    HarnessSource {
        file_name: format!("{simple}.java"),
        class: format!("{PACKAGE}.{simple}"),
        source: out,
    }
}

fn write_override(out: &mut String, callback: &HarnessCallback) {
    let access = if callback.is_protected {
        "protected"
    } else {
        "public"
    };
    let _ = writeln!(
        out,
        "\n    @Override\n    {access} {} {}({}){} {{",
        source_type(&callback.returns),
        callback.method,
        parameters(&callback.params),
        throws(&callback.throws)
    );
    let _ = writeln!(
        out,
        "        if (reporter != null) {{\n            reporter.report(\"{}\");\n        }}",
        callback.symbol
    );
    let call = format!(
        "super.{}({})",
        callback.method,
        arguments(callback.params.len())
    );
    let body = match (callback.is_abstract, callback.returns.as_str()) {
        (true, "void") => None,
        (true, returns) => Some(format!("return {};", default_value(returns))),
        (false, "void") => Some(format!("{call};")),
        (false, _) => Some(format!("return {call};")),
    };
    if let Some(body) = body {
        let _ = writeln!(out, "        {body}");
    }
    out.push_str("    }\n");
}

/// A wire type as Java source writes it: nested classes with `.`.
fn source_type(wire: &WireType) -> String {
    wire.replace('$', ".")
}

fn parameters(params: &[String]) -> String {
    params
        .iter()
        .enumerate()
        .map(|(index, it)| format!("{} arg{index}", source_type(it)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn arguments(n: usize) -> String {
    (0..n)
        .map(|index| format!("arg{index}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn throws(exceptions: &[String]) -> String {
    if exceptions.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = exceptions.iter().map(|it| source_type(it)).collect();
        format!(" throws {}", names.join(", "))
    }
}

/// What an abstract method of the harness returns.
fn default_value(returns: &WireType) -> &'static str {
    match returns {
        "boolean" => "false",
        "char" => "'\\0'",
        "byte" | "short" | "int" | "long" | "float" | "double" => "0",
        _ => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_harness_reports_then_calls_the_inherited_method() {
        let callback =
            |symbol: &str, method: &str, returns: &str, is_abstract: bool| HarnessCallback {
                symbol: symbol.to_owned(),
                method: method.to_owned(),
                params: vec!["java.lang.Object[]".to_owned()],
                returns: returns.to_owned(),
                throws: Vec::new(),
                is_abstract,
                is_protected: true,
            };
        let harness = harness_source(
            "android.os.AsyncTask",
            &[HarnessConstructor {
                params: Vec::new(),
                throws: Vec::new(),
            }],
            &[
                callback("doInBackground", "doInBackground", "java.lang.Object", true),
                callback("onCancelled", "onCancelled", "void", false),
                callback("onProgress", "onProgressUpdate", "int", false),
            ],
        );
        assert_eq!(harness.file_name, "ReportingAsyncTask.java");
        assert_eq!(harness.class, "typestar.harness.ReportingAsyncTask");
        insta::assert_snapshot!(harness.source, @r#"
            // Harness for android.os.AsyncTask, written by `typestar draft`: it reports each callback method to the
            // agent (agent-android/PROTOCOL.md §6). The experiment names this file in `harness`, and the
            // JVM backend compiles it before learning. Edit it if a callback needs a different reaction.
            package typestar.harness;

            import dev.typestar.agent.Callbacks;

            @SuppressWarnings({"rawtypes", "unchecked"})
            public class ReportingAsyncTask extends android.os.AsyncTask {
                // Bound to the query being built; a callback during the superclass constructor, before
                // this field is set, is not reported.
                private final Callbacks.Reporter reporter = Callbacks.reporter();

                public ReportingAsyncTask() {
                    super();
                }

                @Override
                protected java.lang.Object doInBackground(java.lang.Object[] arg0) {
                    if (reporter != null) {
                        reporter.report("doInBackground");
                    }
                    return null;
                }

                @Override
                protected void onCancelled(java.lang.Object[] arg0) {
                    if (reporter != null) {
                        reporter.report("onCancelled");
                    }
                    super.onCancelled(arg0);
                }

                @Override
                protected int onProgressUpdate(java.lang.Object[] arg0) {
                    if (reporter != null) {
                        reporter.report("onProgress");
                    }
                    return super.onProgressUpdate(arg0);
                }
            }
        "#);
    }
}
