"""Drives two headless Chromium sessions through the demo's chat page (/chat.html over /ws/chat).

Usage: browser_chat.py URL [--http1]
  URL: the page, e.g. http://127.0.0.1:18650/chat.html or https://...
  --http1: Chromium with HTTP/2 off, so that an https page's WebSocket is an HTTP/1.1 upgrade; without
           it, Chromium loads an https page over HTTP/2 and opens the WebSocket on that connection by
           RFC 8441's extended CONNECT when the server's SETTINGS allow it

Each session opens the page and waits for its WebSocket to be open; the first sends a message, the
second answers; both must show both messages, in order. Exits 0 on success, 1 with a reason on
failure. Every wait is bounded (10 s each).
"""
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 10


def browser(profile, http1):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--ignore-certificate-errors",
                 "--user-data-dir=" + profile):
        options.add_argument(flag)
    if http1:
        options.add_argument("--disable-http2")
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def state(driver):
    return driver.find_element(By.ID, "state").text


def messages(driver):
    return [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#messages li")]


def send(driver, name, text):
    field = driver.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "text").send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "#send button").click()


def main(url, http1):
    drivers = []
    try:
        with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
            for profile in (one, two):
                driver = browser(profile, http1)
                drivers.append(driver)
                driver.set_page_load_timeout(WAIT)
                driver.get(url)
                WebDriverWait(driver, WAIT).until(lambda d: state(d) != "connecting")
                if state(driver) != "open":
                    print(f"browser chat: the page's WebSocket is {state(driver)!r}, not open")
                    return 1
            ada, bob = drivers
            send(ada, "ada", "hello from ada")
            send_after = lambda d: len(messages(d)) >= 1
            for driver in drivers:
                WebDriverWait(driver, WAIT).until(send_after)
            send(bob, "bob", "hi ada ✓")
            expected = ["ada: hello from ada", "bob: hi ada ✓"]
            for driver in drivers:
                WebDriverWait(driver, WAIT).until(lambda d: len(messages(d)) >= 2)
                if messages(driver) != expected:
                    print(f"browser chat: a session shows {messages(driver)}, not {expected}")
                    return 1
            via = url.split(':')[0] + (" with HTTP/2 off" if http1 else "")
            print(f"browser chat over {via}: two sessions, {len(expected)} messages each, in order")
            return 0
    except Exception as e:  # a timeout or a driver failure: say which, briefly
        print(f"browser chat: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return 1
    finally:
        for driver in drivers:
            driver.quit()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--http1" in sys.argv[2:]))
