//! SARIF 2.1.0 for code-scanning tools.
//!
//! It writes one run of the `typestar` driver, with one rule per diagnostic code.
//! Each finding is one result, with its related locations.
//! A file that could not be checked is an error notification; one read with a caveat is a warning notification.
//! A notification's descriptor id is the error's code, and its text ends with the next step.
//! A result's property `apiLevels` says on which API levels it happens, when not on every level.

use checker::{Violation, ViolationKind};

use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification,
    PhysicalLocation, PropertyBag, Region, ReportingDescriptor, ReportingDescriptorReference,
    Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
};

use std::collections::BTreeMap;

use server::project::{ProjectResult, ShownFile};
use typestates::LevelSet;

use super::shown_levels;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The report as SARIF 2.1.0 JSON.
pub fn render(project: &ProjectResult) -> String {
    let rules = [
        (
            "typestate-violation",
            "A call the class's protocol does not allow in the object's state.",
        ),
        (
            "ignored-call",
            "A call the protocol accepts but ignores in the object's state.",
        ),
    ]
    .into_iter()
    .map(|(id, description)| {
        ReportingDescriptor::builder()
            .id(id)
            .short_description(
                MultiformatMessageString::builder()
                    .text(description)
                    .build(),
            )
            .build()
    })
    .collect::<Vec<_>>();
    let driver = ToolComponent::builder()
        .name("typestar")
        .version(env!("CARGO_PKG_VERSION"))
        .rules(rules)
        .build();
    let results: Vec<SarifResult> = project
        .files
        .iter()
        .flat_map(|f| {
            let file = &f.source;
            let violations = f
                .result
                .violations
                .iter()
                .zip(&f.violation_levels)
                .map(move |(v, levels)| with_levels(result_of(file, v), levels));
            let unreleased =
                f.result
                    .unreleased
                    .iter()
                    .zip(&f.unreleased_levels)
                    .map(move |(u, levels)| {
                        let result = SarifResult::builder()
                            .rule_id(u.code)
                            .level(ResultLevel::Warning)
                            .message(Message::builder().text(u.message.clone()).build())
                            .locations(vec![location(
                                file,
                                u.span.start.line,
                                u.span.start.col,
                                None,
                            )])
                            .build();
                        with_levels(result, levels)
                    });
            violations.chain(unreleased)
        })
        .collect();
    let notification = |code: &str, message: String, help: &str, level: &str| {
        Notification::builder()
            .message(
                Message::builder()
                    .text(format!("{message}; {help}"))
                    .build(),
            )
            .descriptor(
                ReportingDescriptorReference::builder()
                    .id(code.to_owned())
                    .build(),
            )
            .level(level)
            .build()
    };
    let errors = project
        .errors
        .iter()
        .map(|e| notification(e.code(), e.to_string(), e.next_step(), "error"));
    let warnings = project
        .warnings
        .iter()
        .map(|w| notification(w.code(), w.to_string(), w.next_step(), "warning"));
    let notifications: Vec<Notification> = errors.chain(warnings).collect();
    let invocation = Invocation::builder()
        .execution_successful(project.errors.is_empty())
        .tool_execution_notifications(notifications)
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .invocations(vec![invocation])
        .results(results)
        .build();
    let sarif = Sarif::builder()
        .schema(SCHEMA)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    serde_json::to_string_pretty(&sarif).expect("SARIF serializes") + "\n"
}

fn location(file: &ShownFile, line: u32, col: u32, message: Option<&str>) -> Location {
    let physical = PhysicalLocation::builder()
        .artifact_location(
            ArtifactLocation::builder()
                .uri(file.path.display().to_string().replace('\\', "/"))
                .build(),
        )
        .region(
            Region::builder()
                .start_line(i64::from(line))
                .start_column(i64::from(col))
                .build(),
        )
        .build();
    match message {
        Some(text) => Location::builder()
            .physical_location(physical)
            .message(Message::builder().text(text).build())
            .build(),
        None => Location::builder().physical_location(physical).build(),
    }
}

/// The result with the API levels it happens on as the property `apiLevels`, when they say more
/// than "every level".
fn with_levels(mut result: SarifResult, levels: &LevelSet) -> SarifResult {
    if let Some(levels) = shown_levels(levels) {
        let bag = PropertyBag::builder()
            .additional_properties(BTreeMap::from([(
                "apiLevels".to_owned(),
                serde_json::Value::from(levels),
            )]))
            .build();
        result.properties = Some(bag);
    }
    result
}

fn result_of(file: &ShownFile, v: &Violation) -> SarifResult {
    let level = match v.kind {
        ViolationKind::Definite => ResultLevel::Error,
        ViolationKind::Possible | ViolationKind::Ignored => ResultLevel::Warning,
        ViolationKind::Handled => ResultLevel::Note,
    };
    let related: Vec<Location> = v
        .related
        .iter()
        .map(|r| location(file, r.span.start.line, r.span.start.col, Some(&r.label)))
        .collect();
    SarifResult::builder()
        .rule_id(v.kind.code())
        .level(level)
        .message(Message::builder().text(v.message.clone()).build())
        .locations(vec![location(
            file,
            v.span.start.line,
            v.span.start.col,
            None,
        )])
        .related_locations(related)
        .build()
}
