//! How the symbols of a typestate map to Java code.
//!
//! A callin names one or more Java methods (a constructor, a static factory, an instance method,
//! with exact parameter types or "any overload").
//! Several callins may refine the same method by argument or environment (SQLiteOpenHelper's
//! `openNew` and `openLV` are both `getWritableDatabase()`).
//! A checker that sees that method treats the call as "one of these".
//! A callback names how the client receives it.
//! That is a listener interface method plus the callin that registers the listener, or a method the
//! client overrides.
//! Several callbacks may share that method, told apart by a condition on [`crate::Callback`].
//! FileObserver's `modified` and `deleted` are both `onEvent(int, String)`, told apart by the event
//! mask.
//!
//! An *observer* is a method whose return value the state decides (`isPlaying()`, `hasNext()`,
//! `getStatus()`).
//! It is bound by callins that each name one answer ([`CallinBinding::returns`]), as JaTyC's
//! decision states do.
//! In a state, the answers it can give are enabled and lead to the state that answer implies.
//! An answer it cannot give is an error without an exception.
//! A call that throws there has every answer an error with the exception.
//! A checker that sees `if (player.isPlaying())` keeps, on each branch, only the states the
//! matching answer leads to.

use crate::model::CallinId;

/// The Java method(s) a callin stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallinBinding {
    /// The methods; a call of any of them is this callin (subject to `condition`).
    pub methods: Vec<MethodRef>,
    /// The argument or environment that singles this callin out among others bound to the same
    /// method: "database file absent". `None` when the method alone decides.
    pub condition: Option<String>,
    /// For an observer: the answer this callin stands for (`isPlaying()` returning `true`).
    pub returns: Option<Answer>,
}

/// An abstract return value of an observer: what a branch can test.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Answer {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `null`.
    Null,
    /// Anything but `null`.
    NonNull,
    /// The number zero.
    Zero,
    /// Any number but zero.
    NonZero,
    /// A number below zero (`dequeueInputBuffer()` with no buffer: `INFO_TRY_AGAIN_LATER`).
    Negative,
    /// Zero or a number above it (an index).
    NonNegative,
    /// An enum constant or named constant, by its simple name: `RUNNING`.
    Constant(String),
}

impl Answer {
    /// Reads an answer as written in files: `true`, `false`, `null`, `nonnull`, `zero`,
    /// `nonzero`, `negative`, `nonnegative`, or a constant's simple name.
    pub fn parse(word: &str) -> Option<Answer> {
        Some(match word {
            "true" => Answer::True,
            "false" => Answer::False,
            "null" => Answer::Null,
            "nonnull" => Answer::NonNull,
            "zero" => Answer::Zero,
            "nonzero" => Answer::NonZero,
            "negative" => Answer::Negative,
            "nonnegative" => Answer::NonNegative,
            _ if word
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && word.chars().all(|c| c.is_alphanumeric() || c == '_') =>
            {
                Answer::Constant(word.to_owned())
            }
            _ => return None,
        })
    }

    /// Whether a value that is `self` also makes the test "equals `other`" hold: `Some(true)`
    /// or `Some(false)` when the answer decides it, `None` when it does not (`nonzero` against
    /// a constant).
    pub fn equals(&self, other: &Answer) -> Option<bool> {
        use Answer::{Constant, False, Negative, NonNegative, NonNull, NonZero, Null, True, Zero};
        match (self, other) {
            (a, b) if a == b => Some(true),
            (True, False) | (False, True) | (Null, NonNull) | (NonNull, Null) => Some(false),
            (Zero, NonZero) | (NonZero, Zero) | (Zero, Negative) | (Negative, Zero) => Some(false),
            (Negative, NonNegative) | (NonNegative, Negative) => Some(false),
            (Constant(_), Constant(_)) => Some(false),
            (Constant(_), Null) | (Null, Constant(_)) => Some(false),
            // A constant is never null, but `nonnull` may or may not be that constant.
            _ => None,
        }
    }
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Answer::True => "true",
            Answer::False => "false",
            Answer::Null => "null",
            Answer::NonNull => "nonnull",
            Answer::Zero => "zero",
            Answer::NonZero => "nonzero",
            Answer::Negative => "negative",
            Answer::NonNegative => "nonnegative",
            Answer::Constant(name) => name,
        })
    }
}

/// One Java method, constructor or static factory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodRef {
    /// Constructor, static method or instance method.
    pub kind: MethodKind,
    /// The declaring class when it is not the typestate's class (fully qualified).
    pub class: Option<String>,
    /// The method name; `<init>` for constructors.
    pub name: String,
    /// The parameter types.
    pub params: Params,
}

/// What kind of member a [`MethodRef`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// `new C(...)`.
    Constructor,
    /// `C.m(...)`, a static method (usually a factory).
    Static,
    /// `obj.m(...)`.
    Instance,
}

/// The parameter list of a [`MethodRef`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Params {
    /// Any overload of the name.
    Any,
    /// Exactly these parameter types, as written in Java source (`int`, `java.lang.String`,
    /// `android.content.Context`, `java.lang.String[]`).
    Exact(Vec<String>),
}

impl MethodRef {
    /// Whether a call with `arity` arguments may be this method.
    pub fn accepts_arity(&self, arity: usize) -> bool {
        match &self.params {
            Params::Any => true,
            Params::Exact(types) => {
                types.len() == arity
                    || types.last().is_some_and(|t| t.ends_with("...")) && arity + 1 >= types.len()
            }
        }
    }
}

/// How the client receives a callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallbackBinding {
    /// A method of a listener interface, delivered to a listener registered by a callin.
    Listener {
        /// The listener interface, fully qualified: `android.media.MediaPlayer.OnPreparedListener`.
        interface: String,
        /// The interface method: `onPrepared`.
        method: String,
        /// The Java method that registers the listener: `setOnPreparedListener`.
        register: String,
        /// The callin symbol for `register`, when the typestate has one.
        register_callin: Option<CallinId>,
    },
    /// A method of the class (or of a class it hands work to) that the client overrides:
    /// `AsyncTask.onPostExecute`, `CountDownTimer.onFinish`.
    Override {
        /// The declaring class when it is not the typestate's class.
        class: Option<String>,
        /// The overridden method.
        method: String,
    },
}

impl CallbackBinding {
    /// The Java method the client implements.
    pub fn method(&self) -> &str {
        match self {
            CallbackBinding::Listener { method, .. } | CallbackBinding::Override { method, .. } => {
                method
            }
        }
    }
}
