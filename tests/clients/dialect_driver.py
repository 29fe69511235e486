#!/usr/bin/python3
"""GNOME Dialect (Debian's `dialect`, /usr/share/dialect) against nmt serve.

    dialect_driver.py INSTANCE TYPED TYPED_WANT GIVEN GIVEN_WANT SCREENSHOT

Run by tests/clients/dialect.sh, which starts the server, an X server
(Xvfb) and a D-Bus session, and writes Dialect's settings (its
LibreTranslate provider, INSTANCE "localhost:PORT"). This starts Dialect's
own application as /usr/bin/dialect does, in this process, and watches it
from a GLib timer; it changes nothing in Dialect. In order:

 1. /spec through Dialect's own check of an instance URL (the one its
    preferences run: Translator.validate_instance);
 2. Dialect starts and loads the provider: GET /languages and
    GET /frontend/settings; its error page, if shown, fails the test;
 3. as a person would: xdotool clicks into the source box, types TYPED a
    key at a time and presses Ctrl+Enter (POST /translate, source auto);
    Dialect must show TYPED_WANT (nmt's translation), and a screenshot of
    the screen is taken (ImageMagick's `import -window root`);
 4. `dialect --text GIVEN --src auto --dest de`: Dialect's command line,
    forwarded over D-Bus to the running Dialect, which puts GIVEN in its
    source box and translates; it must show GIVEN_WANT.

Prints "ok: ..." per check passed, "FAIL: ..." for the one that failed;
exits 0 or 1. A crash of Dialect is a crash of this process (run it with
-X faulthandler to see where).
"""
import gettext
import json
import os
import subprocess
import sys
import time
import urllib.request

PKG = '/usr/share/dialect'
instance, typed, typed_want, given, given_want, shot = sys.argv[1:7]
sys.path.insert(1, PKG)
gettext.install('dialect', '/usr/share/locale')

from gi.repository import Gio, GLib  # noqa: E402

Gio.Resource.load(os.path.join(PKG, 'dialect.gresource'))._register()
from dialect import main as dialect_main  # noqa: E402
from dialect.translators import TRANSLATORS  # noqa: E402


def say(line):
    print(line, flush=True)


T = TRANSLATORS['libretranslate']
spec_url = T.format_url(instance, T.validation_path)
try:
    with urllib.request.urlopen(spec_url, timeout=10) as r:
        spec = json.load(r)
    valid = T.validate_instance(spec)
except Exception as exc:  # anything: the check fails, saying what
    valid, spec = False, exc
if not valid:
    say(f'FAIL: Dialect does not take {spec_url} for a LibreTranslate instance: {str(spec)[:200]}')
    sys.exit(1)
say(f'ok: Dialect takes {spec_url} for a LibreTranslate instance (validate_instance)')

app = dialect_main.Dialect()
status = 1
start = time.monotonic()
phase, since, child = 'loading', start, None


def to(new_phase, proc=None):
    global phase, since, child
    phase, since, child = new_phase, time.monotonic(), proc


def finish(code, line):
    global status
    status = code
    to('done')
    say(line)
    app.quit()


def text_of(buf):
    return buf.get_text(buf.get_start_iter(), buf.get_end_iter(), True)


def watch():
    w = app.window
    now = time.monotonic()
    if phase == 'done':
        return False
    if now - since > 30:
        finish(1, f'FAIL: Dialect did not get past "{phase}" in 30 s')
        return False
    if w is None:
        return True
    page = w.main_stack.get_visible_child_name()
    if page == 'error':
        finish(1, f'FAIL: Dialect shows its error page: {w.error_page.get_title()}: {w.error_page.get_description()}')
        return False
    if child is not None and child.poll() is None:
        return True   # xdotool or dialect --text still running
    if child is not None and child.returncode != 0:
        finish(1, f'FAIL: {" ".join(child.args)} exited with status {child.returncode}')
        return False
    if phase == 'loading' and page == 'translate':
        say(f'ok: Dialect loaded the provider: languages {", ".join(w.translator.languages)}; '
            f'chars limit {w.translator.chars_limit}')
        # into the source box (the window is at 0,0: no window manager), then type
        to('typing', subprocess.Popen(['xdotool', 'mousemove', '150', '150', 'click', '1', 'sleep', '0.3',
                                       'type', '--delay', '40', typed]))
    elif phase == 'typing':
        got = text_of(w.src_buffer)
        if got != typed:   # the last keys may still be on their way
            if now - since > 15:
                finish(1, f'FAIL: typed "{typed}", the source box holds "{got}"')
                return False
            return True
        say(f'ok: typed "{typed}" into the source box, a key at a time, Dialect still running')
        to('translating typed', subprocess.Popen(['xdotool', 'key', 'ctrl+Return']))
    elif phase == 'translating typed':
        got = text_of(w.dest_buffer)
        if got:
            if got != typed_want:
                finish(1, f'FAIL: Ctrl+Enter: Dialect shows "{got}", nmt gives "{typed_want}"')
                return False
            say(f'ok: Ctrl+Enter: Dialect shows "{got}" (= nmt\'s)')
            to('shown')
    elif phase == 'shown' and now - since > 1.0:   # let it draw
        r = subprocess.run(['import', '-window', 'root', shot], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(shot) or not os.path.getsize(shot):
            finish(1, f'FAIL: import -window root {shot}: {r.stderr.strip()}')
            return False
        say(f'ok: screenshot {shot}')
        to('given', subprocess.Popen(['dialect', '--text', given, '--src', 'auto', '--dest', 'de']))
    elif phase == 'given':
        if text_of(w.src_buffer) != given:
            finish(1, f'FAIL: dialect --text: the source box holds "{text_of(w.src_buffer)}"')
            return False
        got = text_of(w.dest_buffer)
        if got != typed_want:   # the last translation stays until the new one comes
            if got != given_want:
                finish(1, f'FAIL: dialect --text: Dialect shows "{got}", nmt gives "{given_want}"')
            else:
                finish(0, f'ok: `dialect --text "{given}" --src auto --dest de`: Dialect shows "{got}" (= nmt\'s)')
            return False
    return True


GLib.timeout_add(100, watch)
app.run([sys.argv[0]])
sys.exit(status)
