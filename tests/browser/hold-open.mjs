// Holds the console open in headless Chromium, as a person watching it would, for
// benches/console-beside.sh: logs in, times the first load of the Overview and of the Queues
// page (printed as "load overview_ms=… queues_ms=…"), then stays on PAGE (overview or queues,
// both refresh every 2 s) until it is sent SIGTERM.
//   CONSOLE_URL, USER, PASSWORD, PAGE
import { chromium } from "playwright-core";

const env = process.env;
const browser = await chromium.launch({
  executablePath: env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
page.setDefaultTimeout(30000);
await page.goto(env.CONSOLE_URL);
await page.fill("#login input[name=user]", env.USER);
await page.fill("#login input[name=password]", env.PASSWORD);
await page.click("#login button[type=submit]");
await page.waitForSelector("h1:has-text('Queue manager')");
// A fresh load of each page, logged in: the document, its script, and the first data drawn.
let t = Date.now();
await page.goto(`${env.CONSOLE_URL}#/overview`);
await page.reload();
await page.waitForSelector("svg.chart");
const overviewMs = Date.now() - t;
t = Date.now();
await page.goto(`${env.CONSOLE_URL}#/queues`);
await page.reload();
await page.waitForSelector("table[data-test=queues] tr[data-queue]");
const queuesMs = Date.now() - t;
console.log(`load overview_ms=${overviewMs} queues_ms=${queuesMs}`);
await page.goto(`${env.CONSOLE_URL}#/${env.PAGE || "overview"}`);
process.on("SIGTERM", async () => {
  await browser.close();
  process.exit(0);
});
setInterval(() => {}, 1000);
