//! Headless Chromium over WebDriver (chromedriver, from Debian's `chromium-driver`) for the
//! browser tests (tests/it/browser.rs) and the web benchmark (benches/web.rs), which include
//! this file with `#[path]`; each uses only part of it.
#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A process killed when the test is done with it.
pub(crate) struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A port free now.
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `command` and returns it with the first address it prints (`http://...`).
pub(crate) fn start_with_url(mut command: Command) -> (Running, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let running = Running(child);
    let url = loop {
        let line = lines
            .next()
            .expect("the command printed its address")
            .unwrap();
        if let Some(at) = line.find("http://") {
            break line[at..].split_whitespace().next().unwrap().to_string();
        }
    };
    // Keep reading its output so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (running, url)
}

/// Chromium's arguments: headless, in a desktop's window.
const HEADLESS: [&str; 5] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--window-size=1280,1000",
];

/// Headless Chromium under chromedriver.
pub(crate) struct Browser {
    pub client: Client,
    _driver: Running,
    pub runtime: tokio::runtime::Runtime,
}

impl Browser {
    pub(crate) fn start() -> Browser {
        Browser::with_options(json!({"args": HEADLESS}))
    }

    /// A phone: 390 px wide, its screen touched (a coarse pointer), three device pixels a px.
    pub(crate) fn phone() -> Browser {
        Browser::with_options(json!({
            "args": HEADLESS,
            "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": true}},
        }))
    }

    /// Chromium with `options` (its `goog:chromeOptions`).
    fn with_options(options: Value) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "chromedriver runs the browser tests: apt-get install chromium chromium-driver",
            );
        let driver = Running(driver);
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        let client = runtime
            .block_on(
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(capabilities)
                    .connect(&format!("http://127.0.0.1:{port}")),
            )
            .expect("a WebDriver session with headless Chromium");
        Browser {
            client,
            _driver: driver,
            runtime,
        }
    }

    pub(crate) fn goto(&self, url: &str) {
        self.runtime.block_on(self.client.goto(url)).unwrap();
    }

    /// Runs `script` (a function body) in the page and returns what it returns.
    pub(crate) fn eval(&self, script: &str) -> Value {
        self.runtime
            .block_on(self.client.execute(script, Vec::new()))
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until `script` returns what JavaScript calls true: not null, undefined, false, 0
    /// or "". A count of rows is then waited for, not read before the page has drawn them (it
    /// read 0 rows once, on a loaded machine, while the page was still fetching its games).
    pub(crate) fn until(&self, script: &str) -> Value {
        self.until_within(script, Duration::from_secs(30))
    }

    /// [`Browser::until`] for what takes longer than its 30 seconds (a bot's build). A script
    /// that throws is "not yet": the page may be drawing itself (an element it reads not there
    /// for a moment, as once on a loaded machine); the last error is told if the wait ends.
    pub(crate) fn until_within(&self, script: &str, wait: Duration) -> Value {
        let deadline = Instant::now() + wait;
        loop {
            let value = self
                .runtime
                .block_on(self.client.execute(script, Vec::new()))
                .map_err(|error| error.to_string());
            let falsy = match &value {
                Ok(Value::Null) | Err(_) => true,
                Ok(Value::Bool(b)) => !b,
                Ok(Value::Number(n)) => n.as_f64() == Some(0.0),
                Ok(Value::String(s)) => s.is_empty(),
                Ok(_) => false,
            };
            if !falsy {
                return value.expect("not falsy");
            }
            if Instant::now() > deadline {
                let page = self.eval("return document.body.innerText;");
                panic!("waited in vain for: {script} ({value:?})\nthe page: {page}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the element `css` selects, as a person does (a WebDriver click). A page that
    /// redraws itself (live data, or the first event of its server-sent events) may replace the
    /// element between finding and clicking it: then it is found again, for a few seconds.
    pub(crate) fn click(&self, css: &str) {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match self.try_click(css) {
                Ok(()) => return,
                Err(e) if e.is_stale_element_reference() && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    /// Clicks the element `css` selects, if the page still has it: a page that redraws itself
    /// (after a poll of the server) may replace it between a check and the click.
    pub(crate) fn try_click(&self, css: &str) -> Result<(), fantoccini::error::CmdError> {
        self.runtime.block_on(async {
            let element = self.client.find(Locator::Css(css)).await?;
            element.click().await
        })
    }

    pub(crate) fn press(&self, key: &str) {
        self.runtime
            .block_on(async {
                let body = self.client.find(Locator::Css("body")).await?;
                body.send_keys(key).await
            })
            .unwrap();
    }

    pub(crate) fn screenshot(&self, path: &Path) {
        let png = self.runtime.block_on(self.client.screenshot()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let client = self.client.clone();
        let _ = self.runtime.block_on(client.close());
    }
}
