import { describe, expect, it } from 'vitest';
import { removeInterfaceLabels } from './interface-labels.js';
import { parseDocument } from './parse-document.js';

describe('removeInterfaceLabels', () => {
  it('drops blocks that are only a control label and keeps sentences using the same words', () => {
    const doc = parseDocument(`<div id="c">
      <div class="card"><a href="/p/1">Ergo Mesh Chair</a><span>$199</span><div>Quick view</div><a href="#">+ Wishlist</a><span>Compare</span></div>
      <p>Reply to this thread only after you read more about the rules.</p>
      <div class="post"><span>Joined</span><span>Reaction score</span><p>I bought the chair last year and it still holds up.</p><a>Reply</a></div>
    </div>`);
    const container = doc.getElementById('c') as Element;
    removeInterfaceLabels(container);
    const text = (container.textContent ?? '').replace(/\s+/g, ' ').trim();
    expect(text).toBe(
      'Ergo Mesh Chair$199 Reply to this thread only after you read more about the rules. I bought the chair ' +
        'last year and it still holds up.',
    );
  });
});
