#!/usr/bin/python3
"""Opens a schedlab HTML report in headless Chromium over the DevTools
protocol and fails on any console error or exception, a plot that drew no
marks, or a page that does not finish. Saves a screenshot.

  /usr/bin/python3 tests/browser/check_report.py REPORT.html SCREENSHOT.png [--max-open-s S]
      [--dump FILE]

--dump writes what the browser made of the page, as JSON: "plots" (the
plots' data as the page's script parsed it), "text" (the page's visible
text) and "scripts" (how many <script> elements the parser made).

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
    report, shot = os.path.abspath(args[0]), args[1]
    profile = tempfile.mkdtemp(prefix="schedlab-chromium-")
    proc = subprocess.Popen(
        [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", "--disable-background-networking", "--user-data-dir=" + profile,
         "--remote-debugging-port=0", "--window-size=1400,1000", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return check(profile, report, shot, max_open, dump)
    finally:
        os.killpg(proc.pid, 9)  # our own process group only
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def check(profile, report, shot, max_open, dump):
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
    send("Page.navigate", url="file://" + report)
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
    if result is None:
        for e in errors:
            print("FAIL:", e)
        sys.exit("check_report: the page did not finish rendering in 30 s")
    if dump:
        r = send("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify({plots: JSON.parse(document.getElementById('schedlab-plots')"
            ".textContent), text: document.body.innerText, scripts: document.scripts.length})"))
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
    print(f"opened and rendered in {opened:.2f} s (views {result.get('ms', 0) / 1000:.2f} s); "
          f"screenshot {shot}")
    if max_open is not None and opened > max_open:
        failed.append(f"took {opened:.2f} s, more than {max_open} s")
    for f in failed:
        print("FAIL:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
