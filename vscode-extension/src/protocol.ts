// The protocol view's data (the server's `typestar/protocol` answer, `ProtocolView` in server/src/analysis/protocol.rs)
// and what the view draws and says about it. No `vscode` here: the webview script bundles this module too.

export interface StateView {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly initial: boolean;
}

export interface TransitionView {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly source: string | null;
  readonly unverified: boolean;
}

export interface ProtocolView {
  readonly class: string;
  readonly summary: string | null;
  readonly dot: string;
  readonly states: readonly StateView[];
  readonly transitions: readonly TransitionView[];
  readonly provenance: readonly string[];
  readonly possible: readonly string[];
}

/** The fill of the states the object may be in at the cursor. */
export const HIGHLIGHT = '#ffd866';

/** The view's DOT with the possible states filled: attribute statements after the server's merge into its nodes. */
export function highlightedDot(view: ProtocolView): string {
  const end = view.dot.lastIndexOf('}');
  if (end < 0 || view.possible.length === 0) {
    return view.dot;
  }
  const fills = view.possible.map((id) => `  "${id}" [style="rounded,filled", fillcolor="${HIGHLIGHT}", penwidth=2];\n`).join('');
  return view.dot.slice(0, end) + fills + view.dot.slice(end);
}

/** What the side panel says about a clicked node or edge. */
export interface Details {
  readonly title: string;
  readonly lines: readonly string[];
}

/** The name of a DOT node: a state's name, or the sinks and the start point as they are. */
function nodeName(view: ProtocolView, id: string): string {
  return view.states.find((s) => s.id === id)?.name ?? id;
}

function transitionLine(view: ProtocolView, t: TransitionView): string {
  const cited = t.source === null ? 'no citation' : t.source;
  return `${nodeName(view, t.from)} --${t.label}--> ${nodeName(view, t.to)}: ${cited}${t.unverified ? ' (unverified)' : ''}`;
}

/** Details of a clicked graph element, by its SVG title: `s1` for a node, `s1->s2` for an edge. */
export function details(view: ProtocolView, title: string): Details {
  const [from, to] = title.split('->');
  if (from !== undefined && to !== undefined) {
    const lines = view.transitions.filter((t) => t.from === from && t.to === to).map((t) => transitionLine(view, t));
    return { title: `${nodeName(view, from)} → ${nodeName(view, to)}`, lines: lines.length > 0 ? lines : ['how objects are created'] };
  }
  const state = view.states.find((s) => s.id === title);
  if (state === undefined) {
    const into = view.transitions.filter((t) => t.to === title).map((t) => transitionLine(view, t));
    return { title, lines: into };
  }
  const possible = view.possible.includes(state.id) ? ['The object at the cursor may be in this state.'] : [];
  const header = [`${state.description ?? 'No description.'}${state.initial ? ' (initial)' : ''}`, ...possible];
  return { title: state.name, lines: [...header, ...view.transitions.filter((t) => t.from === state.id).map((t) => transitionLine(view, t))] };
}
