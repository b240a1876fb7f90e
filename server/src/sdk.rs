//! The Android API levels an app runs on, read from its project configuration.
//!
//! A source file belongs to the module of the nearest folder above it with a Gradle build file
//! (`build.gradle`, `build.gradle.kts`).
//! With none, it is the nearest folder with an `AndroidManifest.xml`.
//! Each of `minSdk` and `targetSdk` is read from the first place that says:
//! 1. the module's Gradle file (`minSdk 21`, `minSdk = 21`, `minSdkVersion 21`, `minSdkVersion(21)`, and the same for `targetSdk`);
//! 2. its manifest's `<uses-sdk android:minSdkVersion="21" android:targetSdkVersion="34">` (`src/main/AndroidManifest.xml`, or `AndroidManifest.xml` in the module folder);
//! 3. the setting (`typestar check --min-sdk/--target-sdk`, the LSP settings).
//!
//! A value Gradle computes (`minSdk = libs.versions.min.get().toInt()`) is not a number this reader can know.
//! It is passed over with a warning naming the place, and the next source answers.
//!
//! The app's levels are `minSdk..targetSdk`.
//! An app declares it was built for `targetSdk`.
//! Android keeps an app's behaviour at its `targetSdk` where it gates a change on the target level.
//! An unknown end leaves that side open.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use checker::NameFilter;
use regex::Regex;
use typestates::library::Library;
use typestates::{ApiLevels, LevelSet};

/// The ranges of levels on each of which every protocol of `library` that `texts` may use is
/// the same, in order: every level in one range when none of them depends on the level.
/// A protocol that changes with the level counts only when some text names what a tracked
/// object of it needs ([`NameFilter`]: its class, a subclass in the library, a factory), so
/// that a project using none of them is checked once, however many bundled protocols do.
pub fn level_bands<'t>(
    library: &Library,
    texts: impl IntoIterator<Item = &'t str>,
) -> Vec<ApiLevels> {
    let mut bands = LevelBands::new(library);
    for text in texts {
        bands.read(text);
    }
    bands.bands()
}

/// [`level_bands`] from texts seen one at a time, so that none needs to be kept.
pub struct LevelBands {
    /// The protocols that change with the level.
    varying: Library,
    /// What names them; `None` once some text did (or when none varies).
    filter: Option<NameFilter>,
    named: bool,
}

impl LevelBands {
    /// Nothing read yet.
    pub fn new(library: &Library) -> LevelBands {
        let mut varying = Library::default();
        for entry in library.iter().filter(|e| e.typestate.varies_by_level()) {
            varying.insert(entry.clone());
        }
        let filter = (!varying.is_empty()).then(|| NameFilter::new(&varying));
        LevelBands {
            varying,
            filter,
            named: false,
        }
    }

    /// Reads one text.
    pub fn read(&mut self, text: &str) {
        if let Some(filter) = &self.filter {
            if filter.matches(text) {
                self.named = true;
                self.filter = None;
            }
        }
    }

    /// The ranges of levels, from the texts read.
    pub fn bands(&self) -> Vec<ApiLevels> {
        if !self.named {
            return vec![ApiLevels::ALL];
        }
        ApiLevels::ALL.split(self.varying.level_boundaries())
    }
}

/// The library on the levels of `band`, one of [`level_bands`]: `library` itself when `band`
/// holds every level.
pub fn library_on(library: &Library, band: ApiLevels) -> Cow<'_, Library> {
    if band == ApiLevels::ALL {
        Cow::Borrowed(library)
    } else {
        Cow::Owned(library.at_level(band.representative()))
    }
}

/// A library and its restrictions to ranges of API levels ([`library_on`]), each made once
/// and shared.
/// A checker's incremental cache sees a library change by pointer identity.
/// So the same band always gets the same `Arc` until the library is replaced.
#[derive(Debug, Default)]
pub struct LevelLibraries {
    whole: Arc<Library>,
    bands: Mutex<Vec<(ApiLevels, Arc<Library>)>>,
}

impl LevelLibraries {
    /// `library` on every level, with no band made yet.
    pub fn new(library: Library) -> LevelLibraries {
        LevelLibraries {
            whole: Arc::new(library),
            bands: Mutex::default(),
        }
    }

    /// The library on every level.
    pub fn whole(&self) -> &Arc<Library> {
        &self.whole
    }

    /// The library on the levels of `band`, made on the first call for `band`.
    pub fn on(&self, band: ApiLevels) -> Arc<Library> {
        let mut bands = self.bands.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, library)) = bands.iter().find(|(made, _)| *made == band) {
            return library.clone();
        }
        let library = match library_on(&self.whole, band) {
            Cow::Borrowed(_) => self.whole.clone(),
            Cow::Owned(library) => Arc::new(library),
        };
        bands.push((band, library.clone()));
        library
    }
}

/// Adds `levels` to the finding of `found` equal to `finding` (`on` holds the levels of each
/// finding of `found`), or adds it with those levels.
pub fn merge_finding<T: PartialEq>(
    found: &mut Vec<T>,
    on: &mut Vec<LevelSet>,
    finding: T,
    levels: ApiLevels,
) {
    match found.iter().position(|f| *f == finding) {
        Some(index) => on[index].add(levels),
        None => {
            found.push(finding);
            on.push(LevelSet::of(levels));
        }
    }
}

/// Gradle build files, in the order they are looked for.
const GRADLE_FILES: &[&str] = &["build.gradle", "build.gradle.kts"];

/// Where a module's manifest may be, relative to the module folder.
const MANIFESTS: &[&str] = &["src/main/AndroidManifest.xml", "AndroidManifest.xml"];

/// Configuration files larger than this are not read (a real one is a few kilobytes).
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// `minSdk` and `targetSdk` as a user set them, for modules that do not say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SdkSetting {
    /// The lowest API level the app runs on.
    pub min_sdk: Option<u32>,
    /// The API level the app targets.
    pub target_sdk: Option<u32>,
}

/// The API levels of one module, and where each end was read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AppLevels {
    /// `minSdk`, and the place it was read.
    pub min_sdk: Option<(u32, String)>,
    /// `targetSdk`, and the place it was read.
    pub target_sdk: Option<(u32, String)>,
}

impl AppLevels {
    /// The levels the app runs on: `minSdk..targetSdk`, open where unknown.
    pub fn range(&self) -> ApiLevels {
        ApiLevels {
            min: self.min_sdk.as_ref().map(|(level, _)| *level),
            max: self.target_sdk.as_ref().map(|(level, _)| *level),
        }
    }

    /// Whether either end is known.
    pub fn is_known(&self) -> bool {
        self.min_sdk.is_some() || self.target_sdk.is_some()
    }
}

/// Reads the levels of the modules of source files, each module once.
#[derive(Debug, Default)]
pub struct SdkReader {
    setting: SdkSetting,
    modules: HashMap<PathBuf, AppLevels>,
    /// Places whose value could not be read, with why; each reported once.
    pub warnings: Vec<(PathBuf, String)>,
}

impl SdkReader {
    /// A reader that falls back on `setting`.
    pub fn new(setting: SdkSetting) -> SdkReader {
        SdkReader {
            setting,
            ..SdkReader::default()
        }
    }

    /// The levels of the module the source file at `path` belongs to.
    pub fn levels_of(&mut self, path: &Path) -> AppLevels {
        let holds = |names: &'static [&'static str]| {
            move |dir: &&Path| names.iter().any(|name| dir.join(name).is_file())
        };
        let module = (path.ancestors().skip(1).find(holds(GRADLE_FILES))).or_else(|| {
            path.ancestors()
                .skip(1)
                .find(holds(&["AndroidManifest.xml"]))
        });
        let Some(module) = module else {
            return self.completed_by_setting(AppLevels::default());
        };
        if let Some(levels) = self.modules.get(module) {
            return levels.clone();
        }
        let mut levels = AppLevels::default();
        for name in GRADLE_FILES {
            let file = module.join(name);
            if let Some(text) = self.read(&file) {
                self.fill(&mut levels, &file, &gradle_values(&text));
            }
        }
        for name in MANIFESTS {
            let file = module.join(name);
            if let Some(text) = self.read(&file) {
                match manifest_values(&text) {
                    Ok(values) => self.fill(&mut levels, &file, &values),
                    Err(message) => self
                        .warnings
                        .push((file.clone(), format!("{}: {message}", file.display()))),
                }
            }
        }
        let mut levels = self.completed_by_setting(levels);
        if let (Some((min, min_at)), Some((target, target_at))) =
            (&levels.min_sdk, &levels.target_sdk)
        {
            if min > target {
                self.warnings.push((
                    module.to_owned(),
                    format!(
                        "{}: minSdk {min} ({min_at}) is above targetSdk {target} ({target_at}); its files are checked on the levels from {min} on",
                        module.display()
                    ),
                ));
                levels.target_sdk = None;
            }
        }
        self.modules.insert(module.to_owned(), levels.clone());
        levels
    }

    /// Fills the ends `levels` lacks from what `file` says, warning about values it computes.
    fn fill(&mut self, levels: &mut AppLevels, file: &Path, values: &[Value]) {
        for value in values {
            let slot = match value.key {
                Key::Min => &mut levels.min_sdk,
                Key::Target => &mut levels.target_sdk,
            };
            if slot.is_some() {
                continue;
            }
            let place = format!("{}:{}", file.display(), value.line);
            match value.level {
                Some(level) => *slot = Some((level, place)),
                None => self.warnings.push((
                    file.to_owned(),
                    format!(
                        "{place}: `{}` is not a number typestar can read; set the level with --{} or in the manifest",
                        value.text,
                        value.key.flag()
                    ),
                )),
            }
        }
    }

    fn completed_by_setting(&self, mut levels: AppLevels) -> AppLevels {
        if levels.min_sdk.is_none() {
            levels.min_sdk = self
                .setting
                .min_sdk
                .map(|level| (level, "the setting".to_owned()));
        }
        if levels.target_sdk.is_none() {
            levels.target_sdk = self
                .setting
                .target_sdk
                .map(|level| (level, "the setting".to_owned()));
        }
        levels
    }

    /// The text of a configuration file, or `None` when there is none; a file that exists but
    /// cannot be read is a warning.
    fn read(&mut self, file: &Path) -> Option<String> {
        if !file.exists() {
            return None;
        }
        match typestates::files::read_regular(file, MAX_CONFIG_BYTES) {
            Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(err) => {
                self.warnings.push((
                    file.to_owned(),
                    format!("{}: cannot read: {err}", file.display()),
                ));
                None
            }
        }
    }
}

/// Which level a value sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Min,
    Target,
}

impl Key {
    fn flag(self) -> &'static str {
        match self {
            Key::Min => "min-sdk",
            Key::Target => "target-sdk",
        }
    }
}

/// One setting found in a file: the level when it is a number, and its text.
#[derive(Debug, PartialEq, Eq)]
struct Value {
    key: Key,
    level: Option<u32>,
    text: String,
    line: usize,
}

/// `minSdk`/`minSdkVersion` and `targetSdk`/`targetSdkVersion` settings of a Gradle file
/// (Groovy or Kotlin), in file order, outside comments.
fn gradle_values(text: &str) -> Vec<Value> {
    static SETTING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(minSdk|targetSdk)(?:Version)?\b\s*(?:=|(\()|\s)\s*(\S+)")
            .expect("a valid pattern")
    });
    let mut values = Vec::new();
    let mut in_block_comment = false;
    for (index, line) in text.lines().enumerate() {
        let line = strip_comments(line, &mut in_block_comment);
        for found in SETTING.captures_iter(&line) {
            let key = if &found[1] == "minSdk" {
                Key::Min
            } else {
                Key::Target
            };
            let mut text = &found[3];
            if found.get(2).is_some() {
                text = text.strip_suffix(')').unwrap_or(text);
            }
            let text = text.to_owned();
            values.push(Value {
                key,
                level: text.parse().ok(),
                text,
                line: index + 1,
            });
        }
    }
    values
}

/// The line without its `//` comment and the parts inside `/* */` comments.
fn strip_comments(line: &str, in_block_comment: &mut bool) -> String {
    let mut kept = String::new();
    let mut rest = line;
    loop {
        if *in_block_comment {
            match rest.find("*/") {
                Some(end) => {
                    rest = &rest[end + 2..];
                    *in_block_comment = false;
                }
                None => return kept,
            }
        }
        let block = rest.find("/*");
        let line_comment = rest.find("//");
        match (block, line_comment) {
            (Some(b), Some(l)) if l < b => return kept + &rest[..l],
            (None, Some(l)) => return kept + &rest[..l],
            (Some(b), _) => {
                kept.push_str(&rest[..b]);
                kept.push(' ');
                rest = &rest[b + 2..];
                *in_block_comment = true;
            }
            (None, None) => return kept + rest,
        }
    }
}

/// The `android:minSdkVersion` and `android:targetSdkVersion` of a manifest's `<uses-sdk>`.
fn manifest_values(text: &str) -> Result<Vec<Value>, String> {
    const ANDROID: &str = "http://schemas.android.com/apk/res/android";
    let document = roxmltree::Document::parse(text).map_err(|err| format!("not XML: {err}"))?;
    let mut values = Vec::new();
    for node in document
        .descendants()
        .filter(|n| n.has_tag_name("uses-sdk"))
    {
        let line = document.text_pos_at(node.range().start).row as usize;
        for (key, attribute) in [
            (Key::Min, "minSdkVersion"),
            (Key::Target, "targetSdkVersion"),
        ] {
            if let Some(text) = node.attribute((ANDROID, attribute)) {
                values.push(Value {
                    key,
                    level: text.trim().parse().ok(),
                    text: text.to_owned(),
                    line,
                });
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(values: &[Value]) -> Vec<String> {
        values
            .iter()
            .map(|v| format!("{:?} {} line {}", v.key, v.text, v.line))
            .collect()
    }

    #[test]
    fn gradle_settings_in_groovy_and_kotlin() {
        let groovy = "android {\n  defaultConfig {\n    minSdkVersion 21 // was 19\n    targetSdkVersion(30)\n  }\n}\n";
        assert_eq!(
            read(&gradle_values(groovy)),
            ["Min 21 line 3", "Target 30 line 4"]
        );
        let kotlin = "/* minSdk = 1\n targetSdk = 2 */ android {\n  minSdk = 24\n  // targetSdk = 3\n  targetSdk = libs.versions.target.get().toInt()\n}";
        assert_eq!(
            read(&gradle_values(kotlin)),
            [
                "Min 24 line 3",
                "Target libs.versions.target.get().toInt() line 5"
            ]
        );
        assert_eq!(gradle_values(kotlin)[1].level, None);
    }

    #[test]
    fn only_texts_that_may_use_a_varying_protocol_split_the_levels() {
        let library = Library::bundled();
        let player = "class A { void f(MediaPlayer p) { p.start(); } }";
        assert_eq!(level_bands(&library, [player]), [ApiLevels::ALL]);
        let client = "val c = resolver.acquireContentProviderClient(uri)";
        let bands: Vec<String> = level_bands(&library, [player, client])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(bands, ["..23", "24..28", "29.."]);
    }

    #[test]
    fn manifest_uses_sdk() {
        let manifest = r#"<manifest xmlns:android="http://schemas.android.com/apk/res/android">
  <!-- <uses-sdk android:minSdkVersion="3"/> -->
  <uses-sdk android:minSdkVersion="16" android:targetSdkVersion="28" />
</manifest>"#;
        assert_eq!(
            read(&manifest_values(manifest).expect("XML")),
            ["Min 16 line 3", "Target 28 line 3"]
        );
        assert!(manifest_values("<manifest>").is_err());
    }
}
