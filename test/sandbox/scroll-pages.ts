/**
 * Hand-made pages whose content replaces itself as you scroll, for tests of
 * scroll collection (BrowserPool.scrollAndCollect). Serve them with
 * SandboxWeb.addPage; only a browser that scrolls sees every item.
 */
import type { SandboxWeb } from './sandbox-web.js';

/**
 * A virtualised list on the window: a spacer as tall as all rows, and only
 * the rows near the viewport in the DOM (re-rendered on every scroll), so no
 * single snapshot of the page holds every item.
 */
export function virtualListPage(total: number, rowHeightPx = 40): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Virtual list</title>
<style>body{margin:0;font:16px sans-serif} #spacer{position:relative} .row{position:absolute;left:0;right:0;height:${rowHeightPx}px}</style></head>
<body><main><h1>Virtual list</h1><div id="spacer" style="height:${total * rowHeightPx}px"></div></main>
<script>
  var spacer = document.getElementById('spacer');
  function draw() {
    var top = Math.max(0, window.scrollY - spacer.offsetTop);
    var first = Math.max(0, Math.floor(top / ${rowHeightPx}) - 2);
    var last = Math.min(${total}, first + Math.ceil(window.innerHeight / ${rowHeightPx}) + 4);
    var html = '';
    for (var i = first; i < last; i++) html += '<div class="row" style="top:' + (i * ${rowHeightPx}) + 'px">Virtual item ' + (i + 1) + '</div>';
    spacer.innerHTML = html;
  }
  window.addEventListener('scroll', draw);
  draw();
</script></body></html>`;
}

/**
 * A feed in a scrolling box: reaching the box's bottom fetches the next batch
 * from `${dataPath}?batch=N`, which replaces the items and scrolls back up;
 * after `batches` batches nothing more loads.
 */
export function replacingFeedPage(dataPath: string, batches: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Replacing feed</title>
<style>#feed{height:400px;overflow:auto} .item{height:60px}</style></head>
<body><h1>Replacing feed</h1><div id="feed"></div>
<script>
  var feed = document.getElementById('feed');
  var batch = 0, loading = false;
  function render(items) { feed.innerHTML = items.map(function (t) { return '<div class="item">' + t + '</div>'; }).join(''); }
  render(${JSON.stringify(feedBatch(0))});
  feed.addEventListener('scroll', function () {
    if (loading || batch >= ${batches - 1}) return;
    if (feed.scrollTop + feed.clientHeight < feed.scrollHeight - 20) return;
    loading = true;
    fetch('${dataPath}?batch=' + (batch + 1)).then(function (r) { return r.json(); }).then(function (items) {
      batch++; render(items); feed.scrollTop = 0; loading = false;
    });
  });
</script></body></html>`;
}

/** The ten item labels of one feed batch. */
export function feedBatch(batch: number): string[] {
  return Array.from({ length: 10 }, (_, i) => `Feed item ${batch * 10 + i + 1}`);
}

/** Serves a replacing feed at pagePath with its batches (each answered after delayMs); returns the page URL. */
export function addReplacingFeed(web: SandboxWeb, pagePath: string, batches: number, delayMs = 100): string {
  const dataPath = `${pagePath}-data`;
  for (let batch = 1; batch < batches; batch++) {
    web.addPage(`${dataPath}?batch=${batch}`, JSON.stringify(feedBatch(batch)), {
      contentType: 'application/json',
      delayMs,
    });
  }
  return web.addPage(pagePath, replacingFeedPage(dataPath, batches));
}
