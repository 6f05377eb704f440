"""Uploads two files and a field through the demo's form (/upload.html) in headless Chromium.

Usage: browser_upload.py URL [--http1]
  URL: the form page, e.g. http://127.0.0.1:18650/upload.html or https://...
  --http1: Chromium with HTTP/2 off; without it, an https page is loaded and posted over HTTP/2

The browser fills the form as a user would (a text field, two files in one multiple file input, one
of them 300,000 bytes, past the server's memory threshold) and submits it; the server's answer, a
line per part with its size and SHA-256, must match what this script computes from the files.
Exits 0 on success, 1 with a reason on failure. Every wait is bounded (10 s).
"""
import hashlib
import os
import random
import sys
import tempfile

from browser_chat import browser, WAIT
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def line(name, filename, data):
    shown = f" ({filename})" if filename is not None else ""
    return f"{name}{shown}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}"


def main(url, http1):
    driver = None
    try:
        with tempfile.TemporaryDirectory() as profile, tempfile.TemporaryDirectory() as files:
            photo = random.Random(42).randbytes(300_000)
            notes = "notes\r\n--not a boundary\r\n\u00e9t\u00e9\n".encode("utf-8")
            paths = []
            for name, data in (("photo.bin", photo), ("notes.txt", notes)):
                path = os.path.join(files, name)
                with open(path, "wb") as out:
                    out.write(data)
                paths.append(path)
            title = "holiday \u00e9t\u00e9"
            driver = browser(profile, http1)
            driver.set_page_load_timeout(WAIT)
            driver.get(url)
            driver.find_element(By.NAME, "title").send_keys(title)
            driver.find_element(By.NAME, "files").send_keys("\n".join(paths))
            driver.find_element(By.CSS_SELECTOR, "form button").click()
            WebDriverWait(driver, WAIT).until(lambda d: "sha256" in d.find_element(By.TAG_NAME, "body").text)
            answer = driver.find_element(By.TAG_NAME, "body").text.strip().splitlines()
            expected = [line("title", None, title.encode("utf-8")), line("files", "photo.bin", photo),
                        line("files", "notes.txt", notes)]
            if answer != expected:
                print(f"browser upload: the server answered {answer}, not {expected}")
                return 1
            via = url.split(':')[0] + (" with HTTP/2 off" if http1 else "")
            print(f"browser upload over {via}: a field and two files, every size and SHA-256 as sent")
            return 0
    except Exception as e:  # a timeout or a driver failure: say which, briefly
        print(f"browser upload: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return 1
    finally:
        if driver is not None:
            driver.quit()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--http1" in sys.argv[2:]))
