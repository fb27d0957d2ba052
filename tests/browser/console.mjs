// The FerryMQ web console in a real headless Chromium, driven by Playwright: what a person does.
// Started by crates/ferry/tests/console_browser.rs with the queue manager already running:
//   CONSOLE_URL  the console's address (http://127.0.0.1:PORT/)
//   FERRY, FERRY_HOME, QM  the ferry binary, its home and the queue manager (an application's put)
//   ADMIN, ADMIN_PW, VIEWER, VIEWER_PW  an administrator, and a user who may only display
//   CHANNEL  a sender channel to start and stop
//   MQTT_CHANNEL  the MQTT listener channel one client is connected to, optional
//   SCREENSHOTS  a directory to save the main pages in (docs/console/), optional
// Exits 0 when every step held; otherwise prints the step that failed and exits 1.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

const env = process.env;
const url = env.CONSOLE_URL;
const shots = env.SCREENSHOTS;
const T = 15000;
let step = "starting Chromium";

function check(cond, what) {
  if (!cond) throw new Error(`expected ${what}`);
}

async function shot(page, name, fullPage = false) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage });
}

async function login(page, user, password) {
  await page.goto(url);
  await page.fill("#login input[name=user]", user);
  await page.fill("#login input[name=password]", password);
  await page.click("#login button[type=submit]");
}

function appPut(queue, text) {
  execFileSync(env.FERRY, ["put", env.QM, queue], { input: `${text}\n`, env: { ...env, FERRY_HOME: env.FERRY_HOME } });
}

async function run() {
  const browser = await chromium.launch({
    executablePath: env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(T);
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => d.accept());

    step = "a wrong password is refused on the login form";
    await login(page, env.ADMIN, "not-the-password");
    await page.waitForSelector("#login-error:not([hidden])");
    check((await page.textContent("#login-error")).includes("2035"), "the refusal to name MQRC_NOT_AUTHORIZED (2035)");
    await shot(page, "login");

    step = "the administrator logs in and sees the overview";
    await login(page, env.ADMIN, env.ADMIN_PW);
    await page.waitForSelector("h1:has-text('Queue manager')");
    check((await page.textContent("#qmgr-name")) === env.QM, "the queue manager's name in the header");
    await page.waitForSelector("[data-test=alerts]");

    step = "a queue's depth changes on the queues page after an application puts";
    await page.click("a[data-nav=queues]");
    const depthCell = page.locator("tr[data-queue='DEV.QUEUE.1'] td[data-test=depth]");
    await depthCell.waitFor();
    check((await depthCell.textContent()) === "0", "DEV.QUEUE.1 empty at first");
    appPut("DEV.QUEUE.1", "hello from an application");
    await page.waitForFunction(() => document.querySelector("tr[data-queue='DEV.QUEUE.1'] td[data-test=depth]")?.textContent === "1", null, { timeout: T });
    await shot(page, "queues");

    step = "the queue's page browses the message";
    await page.click("tr[data-queue='DEV.QUEUE.1']");
    await page.waitForSelector("table[data-test=messages] tr[data-msg]");
    const first = page.locator("table[data-test=messages] tr[data-msg]").first();
    check((await first.textContent()).includes("hello from an application"), "the application's message in the list");
    await first.click();
    await page.waitForSelector("tr[data-detail]:not(.hidden) pre[data-body=text]");
    check((await page.textContent("tr[data-detail]:not(.hidden) pre[data-body=text]")).includes("hello from an application"), "the body as text");

    step = "a test message is put from the page";
    await page.fill("#put-form textarea[name=body]", '{"order": 42}');
    await page.click("#put-send");
    await page.waitForFunction(() => document.querySelectorAll("table[data-test=messages] tr[data-msg]").length === 2, null, { timeout: T });
    await shot(page, "queue", true);

    step = "a message is deleted after confirmation";
    await page.locator("table[data-test=messages] tr[data-msg]").first().locator("input[data-pick]").check();
    await page.click("#m-delete");
    await page.waitForFunction(() => document.querySelectorAll("table[data-test=messages] tr[data-msg]").length === 1, null, { timeout: T });
    check((await page.textContent("table[data-test=messages]")).includes("order"), "the message put from the page is the one left");

    step = "an attribute is changed from the queue's page";
    await page.fill("#qd-form input[name=MAXDEPTH]", "777");
    await page.click("#qd-form button.save");
    await page.waitForSelector("#notice.ok:has-text('MAXDEPTH')");

    step = "an MQSC command runs and its answer is a table";
    await page.click("a[data-nav=mqsc]");
    await page.fill("#mqsc-script", "DISPLAY QLOCAL(DEV.QUEUE.1) CURDEPTH MAXDEPTH");
    await page.click("#mqsc-run");
    await page.waitForSelector("[data-test=mqsc-out] table");
    const out = await page.textContent("[data-test=mqsc-out]");
    check(out.includes("CURDEPTH") && out.includes("777"), `CURDEPTH and MAXDEPTH 777 in ${out}`);
    await shot(page, "mqsc");

    step = "a channel is started and stopped from the channels page";
    await page.click("a[data-nav=channels]");
    const row = page.locator(`tr[data-name='${env.CHANNEL}']`);
    await row.waitFor();
    await row.locator("button[data-act=start]").click();
    appPut(env.CHANNEL_QUEUE, "for the channel");
    await page.waitForFunction((ch) => /RETRYING|BINDING|RUNNING/.test(document.querySelector(`tr[data-name='${ch}']`)?.textContent || ""), env.CHANNEL, { timeout: T });
    await shot(page, "channels");
    await page.locator(`tr[data-name='${env.CHANNEL}'] button[data-act=stop]`).click();
    await page.waitForFunction((ch) => (document.querySelector(`tr[data-name='${ch}']`)?.textContent || "").includes("STOPPED"), env.CHANNEL, { timeout: T });

    step = "a channel's attribute is changed from its detail";
    await page.locator(`tr[data-name='${env.CHANNEL}'] td`).first().click();
    await page.waitForSelector("#o-form input[name=DESCR]");
    await page.fill("#o-form input[name=DESCR]", "to Paris, changed in the browser");
    await page.click("#o-form button.save");
    await page.waitForSelector("#notice.ok:has-text('DESCR')");
    await page.waitForFunction((ch) => (document.querySelector(`tr[data-name='${ch}']`)?.textContent || "").includes("changed in the browser"), env.CHANNEL, { timeout: T });

    step = "the overview, with its charts and the channel not running";
    await page.click("a[data-nav=overview]");
    await page.waitForSelector("svg.chart polyline");
    await page.waitForSelector(`text=${env.CHANNEL}`);
    if (env.MQTT_CHANNEL) {
      step = "the overview's MQTT panel counts the connected MQTT client";
      await page.waitForFunction((ch) => {
        const row = document.querySelector(`tr[data-mqtt='${ch}']`);
        return row && row.children[1].textContent.trim() === "1";
      }, env.MQTT_CHANNEL, { timeout: T });
    }
    await shot(page, "overview");

    step = "logging out, a user without authority is refused";
    await page.click("#logout");
    await page.waitForSelector("#login");
    await login(page, env.VIEWER, env.VIEWER_PW);
    await page.waitForSelector("h1:has-text('Queue manager')");
    await page.goto(`${url}#/queue/DEV.QUEUE.1`);
    await page.waitForSelector("#notice:not([hidden])");
    check((await page.textContent("#notice")).includes("2035"), "MQRC_NOT_AUTHORIZED (2035) for a queue the user may not display");
    await page.goto(`${url}#/mqsc`);
    await page.fill("#mqsc-script", "DEFINE QLOCAL(VIEWER.OWN)");
    await page.click("#mqsc-run");
    await page.waitForSelector("[data-test=mqsc-out] .reply.failed");
    check((await page.textContent("[data-test=mqsc-out]")).includes("2035"), "the refused DEFINE names 2035");

    check(errors.length === 0, `no script errors on the page, got ${errors.join("; ")}`);
  } finally {
    await browser.close();
  }
}

run().then(
  () => { console.log("console in Chromium: every step held"); process.exit(0); },
  (e) => { console.error(`console in Chromium: failed at "${step}": ${e.message}`); process.exit(1); },
);
