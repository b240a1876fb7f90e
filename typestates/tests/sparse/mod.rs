//! Models of `n` states and `n` callins with one step per state, in each format: the shape of
//! the fuzz models that took gigabytes while models were dense.

/// The text format: state `i` goes to state `i + 1` (and the last to the first) on callin `i`.
pub fn text(n: usize) -> String {
    let mut text = String::from("typestate com.example.Sparse\n");
    for i in 0..n {
        text.push_str(&format!("callin c{i}: m{i}()\n"));
    }
    for i in 0..n {
        let initial = if i == 0 { " initial" } else { "" };
        text.push_str(&format!(
            "state S{i}{initial}\n  c{i} -> S{}\n",
            (i + 1) % n
        ));
    }
    text
}

/// A DroidStar DOT file: state `i` goes to state `i + 1` (and the last to the first) on `ci`.
pub fn dot(n: usize) -> String {
    let edges: String = (0..n)
        .map(|i| format!("  {i} -> {}[label=\"c{i}\"];\n", (i + 1) % n))
        .collect();
    format!("digraph {{\n{edges}}}\n")
}

/// A typestar JSON model of `states` states and `callins` callins, each state holding
/// `state_callins` (a JSON object's members) with `{i}` replaced by the state's number and
/// `{next}` by the next state's.
pub fn json_model(states: usize, callins: usize, state_callins: &str) -> String {
    let states: Vec<String> = (0..states)
        .map(|i| {
            let members = state_callins
                .replace("{i}", &i.to_string())
                .replace("{next}", &((i + 1) % states).to_string());
            format!("{{\"name\": \"S{i}\", \"callins\": {{{members}}}}}")
        })
        .collect();
    let callins: Vec<String> = (0..callins)
        .map(|i| format!("{{\"name\": \"c{i}\", \"methods\": [{{\"kind\": \"instance\", \"name\": \"m{i}\", \"params\": []}}]}}"))
        .collect();
    format!(
        "{{\"format\": \"typestar/1\", \"class\": \"a.B\", \"callins\": [{}],\n\"states\": [\n{}],\n\"initial\": \"S0\"}}",
        callins.join(","),
        states.join(",\n")
    )
}

/// The JSON model in the shape of [`text`].
pub fn json(n: usize) -> String {
    json_model(
        n,
        n,
        "\"c{i}\": {\"kind\": \"enabled\", \"target\": \"S{next}\"}",
    )
}
