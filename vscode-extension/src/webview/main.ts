// The protocol view's script, in the webview: draws the DOT with Graphviz compiled to WebAssembly
// (@hpcc-js/wasm-graphviz) and shows what a clicked state or transition means and where it comes from.
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { details, highlightedDot, type ProtocolView } from '../protocol';

const graphviz = Graphviz.load();
let current: ProtocolView | undefined;

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`no #${id} in the view`);
  return found;
}

function show(title: string, lines: readonly string[]): void {
  element('details-title').textContent = title;
  const list = element('details-lines');
  list.replaceChildren(
    ...lines.map((line) => {
      const item = document.createElement('li');
      item.textContent = line;
      return item;
    }),
  );
}

async function render(view: ProtocolView): Promise<void> {
  current = view;
  element('class').textContent = view.class;
  element('summary').textContent = view.summary ?? '';
  const svg = (await graphviz).dot(highlightedDot(view));
  element('diagram').innerHTML = svg;
  show('Provenance', view.provenance);
}

window.addEventListener('message', (event: MessageEvent<{ view: ProtocolView }>) => {
  void render(event.data.view).catch((e: unknown) => show('Cannot draw the protocol', [String(e)]));
});

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('g.node, g.edge') : null;
  const title = target?.querySelector('title')?.textContent;
  if (current !== undefined && title !== undefined && title !== null) {
    const { title: heading, lines } = details(current, title);
    show(heading, lines);
  }
});
