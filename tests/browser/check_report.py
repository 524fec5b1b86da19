#!/usr/bin/python3
"""Opens a schedlab HTML report in headless Chromium over the DevTools
protocol and fails on any console error or exception, a plot that drew no
marks, or a page that does not finish. Saves a screenshot.

  /usr/bin/python3 tests/browser/check_report.py REPORT.html SCREENSHOT.png [--max-open-s S]
      [--dump FILE] [--renderer svg]

--dump writes what the browser made of the page, as JSON: "plots" (the
plots' data as the page's script parsed it), "text" (the page's visible
text), "scripts" (how many <script> elements the parser made) and "page"
(its scroll width and the window's). With --renderer svg (the page's
?renderer=svg: Vega draws SVG, not a canvas) it adds "svg": per plot, the
text of its legend labels and of its x axis's tick labels, as drawn. A page
with flame graphs (report's profiles) adds "flames": per graph, its frames
as drawn ({name, fill, width}); a graph that failed or drew no frame fails.

Needs Debian's chromium and python3-websocket (Debian's python3, not a
pyenv one). Prints one line per plot and the time to a rendered page.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import websocket  # python3-websocket


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_report: chromium not found (Debian package chromium)")


# Per SVG plot: its legends' labels, and the tick labels of its x axis (the
# axis whose labels stand side by side on one line; a y axis's stand one
# above the other), as the browser laid them out.
SVG_TEXT = """(function(){var out={};
document.querySelectorAll('.plot div[id]').forEach(function(div){
  var svg=div.querySelector('svg'); if(!svg) return;
  var text=function(sel,root){return Array.from((root||svg).querySelectorAll(sel)).map(function(t){return t.textContent;});};
  var x=[];
  svg.querySelectorAll('.role-axis').forEach(function(axis){
    var labels=Array.from(axis.querySelectorAll('.role-axis-label text'));
    if(labels.length<2) return;
    var tops=labels.map(function(t){return Math.round(t.getBoundingClientRect().top);});
    if(tops.every(function(v){return v===tops[0];})) x=x.concat(labels.map(function(t){return t.textContent;}));
  });
  out[div.id]={legend:text('.role-legend-label text'),x_labels:x};
});
return out;})()"""


# Per flame graph (d3-flame-graph's SVG): each frame's name, its rectangle's
# fill and width, as drawn.
FLAME_FRAMES = """(function(){var out={};
document.querySelectorAll('.flame div[id]').forEach(function(div){
  out[div.id]=Array.from(div.querySelectorAll('g.frame')).map(function(g){
    var r=g.querySelector('rect');
    return {name:g.getAttribute('name'),fill:r&&r.getAttribute('fill'),
            width:r?parseFloat(r.getAttribute('width')||'0'):0};});
});
return out;})()"""


def main():
    args = sys.argv[1:]
    max_open = None
    if "--max-open-s" in args:
        i = args.index("--max-open-s")
        max_open = float(args[i + 1])
        del args[i:i + 2]
    dump = None
    if "--dump" in args:
        i = args.index("--dump")
        dump = args[i + 1]
        del args[i:i + 2]
    renderer = None
    if "--renderer" in args:
        i = args.index("--renderer")
        renderer = args[i + 1]
        del args[i:i + 2]
    report, shot = os.path.abspath(args[0]), args[1]
    profile = tempfile.mkdtemp(prefix="schedlab-chromium-")
    proc = subprocess.Popen(
        [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", "--disable-background-networking", "--user-data-dir=" + profile,
         "--remote-debugging-port=0", "--window-size=1400,1000", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return check(profile, report, shot, max_open, dump, renderer)
    finally:
        os.killpg(proc.pid, 9)  # our own process group only
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def check(profile, report, shot, max_open, dump, renderer):
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 30
    while not os.path.exists(port_file) or not open(port_file).read().strip():
        if time.time() > deadline:
            sys.exit("check_report: chromium did not open its DevTools port")
        time.sleep(0.05)
    port = open(port_file).read().split()[0]
    import urllib.request
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = next(t for t in targets if t["type"] == "page")
    ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
    state = {"id": 0}
    errors = []

    def send(method, **params):
        state["id"] += 1
        ws.send(json.dumps({"id": state["id"], "method": method, "params": params}))
        while True:
            msg = json.loads(ws.recv())
            if msg.get("id") == state["id"]:
                if "error" in msg:
                    sys.exit(f"check_report: {method}: {msg['error']}")
                return msg.get("result", {})
            note(msg)

    def note(msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append("console." + p["type"] + ": " +
                          " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            errors.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        elif m == "Page.javascriptDialogOpening":
            errors.append("a script opened a dialog: " + p.get("message", ""))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            errors.append("log: " + p["entry"]["text"] + " " + p["entry"].get("url", ""))

    send("Runtime.enable")
    send("Log.enable")
    send("Page.enable")
    start = time.time()
    send("Page.navigate", url="file://" + report + ("?renderer=" + renderer if renderer else ""))
    result = None
    while time.time() - start < 30:
        r = send("Runtime.evaluate", expression="JSON.stringify(window.schedlabReport||null)",
                 returnByValue=True)
        value = json.loads(r["result"].get("value") or "null")
        if value and value.get("done"):
            result = value
            break
        time.sleep(0.02)
    opened = time.time() - start
    # The flame graphs are drawn before the plots' script runs; their rects'
    # widths are set on the next animation frame.
    flames = None
    if result is not None:
        r = send("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify(document.getElementById('schedlab-flames')?"
            "(window.schedlabFlames||{done:false,graphs:[]}):null)"))
        flames = json.loads(r["result"].get("value") or "null")
        if flames is not None:
            time.sleep(0.3)
    if result is None:
        for e in errors:
            print("FAIL:", e)
        sys.exit("check_report: the page did not finish rendering in 30 s")
    if dump:
        r = send("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify({plots: JSON.parse(document.getElementById('schedlab-plots')"
            ".textContent), text: document.body.innerText, scripts: document.scripts.length,"
            " page: {scroll_width: document.documentElement.scrollWidth, window_width: window.innerWidth},"
            " svg: " + SVG_TEXT + ", flames: " + FLAME_FRAMES + "})"))
        if "exceptionDetails" in r:
            sys.exit("check_report: --dump: " + r["exceptionDetails"].get("text", "failed"))
        with open(dump, "w") as f:
            f.write(r["result"]["value"])
    # Resize to the whole page so the screenshot shows everything.
    metrics = send("Page.getLayoutMetrics")
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    send("Emulation.setDeviceMetricsOverride", width=1400,
         height=min(int(size["height"]) + 20, 16000), deviceScaleFactor=1, mobile=False)
    time.sleep(0.2)
    data = send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(data))
    ws.close()

    failed = list(errors)
    if result.get("error"):
        failed.append("render: " + result["error"])
    if not result["plots"]:
        failed.append("no plots on the page")
    for p in result["plots"]:
        print(f"plot {p['id']} ({p['kind']}): {p['marks']} marks")
        if p["marks"] <= 0:
            failed.append(f"plot {p['id']} drew no marks")
    if flames is not None:
        if not flames.get("done"):
            failed.append("the flame graphs' script did not finish")
        if flames.get("error"):
            failed.append("flame graphs: " + flames["error"])
        if not flames.get("graphs"):
            failed.append("a flame graph section without graphs")
        for g in flames.get("graphs", []):
            print(f"flame graph {g['id']} ({g['kind']}): {g['frames']} frames")
            if g["frames"] <= 0:
                failed.append(f"flame graph {g['id']} drew no frames")
    print(f"opened and rendered in {opened:.2f} s (views {result.get('ms', 0) / 1000:.2f} s); "
          f"screenshot {shot}")
    if max_open is not None and opened > max_open:
        failed.append(f"took {opened:.2f} s, more than {max_open} s")
    for f in failed:
        print("FAIL:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
