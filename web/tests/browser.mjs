// The web page's browser test: serves the built page (scripts/build-web.sh) on localhost
// and drives Debian's Chromium headless through playwright-core, as a person would: by
// the pointer and keys on the canvas. scripts/test-web.sh runs it:
//
//   node web/tests/browser.mjs SITE_DIR TEXGRAPH_CLI OUT_DIR
//
// It checks that the page loads without a console error and shows the default graph's
// preview; that a share link of graphs/marble.json opens it and that the PNG and EXR
// exported from the page (taken from the downloads) equal `texgraph render`'s byte for
// byte, and a preset's set (a zip) the CLI's files; that graphs open from the file
// picker and by drag and drop; that a
// param changed through the inspector changes the preview; that reloading the page
// offers the unsaved edit back; and that a broken link shows its error over the example
// graph. Screenshots go to OUT_DIR; the time to the first preview is printed.

import { createServer } from "node:http";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, mkdirSync, existsSync, rmSync } from "node:fs";
import { join, extname, resolve } from "node:path";
import { deflateRawSync, inflateSync } from "node:zlib";
import { chromium } from "playwright-core";

const [site, cli, out] = process.argv.slice(2).map((p) => resolve(p));
const root = resolve(import.meta.dirname, "../..");
mkdirSync(out, { recursive: true });

// The preview panel's image at the test's window size (1400 x 860).
const VIEWPORT = { width: 1400, height: 860 };
const PREVIEW = { x: 1080, y: 516, width: 228, height: 228 };

const failures = [];
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

// A static server of the built page on a free port.
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((request, response) => {
  const path = new URL(request.url, "http://localhost").pathname;
  const file = join(site, path === "/" ? "index.html" : path);
  if (!file.startsWith(site) || !existsSync(file)) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  response.end(readFileSync(file));
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});

// A page whose console errors and uncaught exceptions are collected.
async function open(context, url) {
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(url);
  return page;
}

// The RGB pixels of a screenshot (8-bit, non-interlaced PNG, as Chromium writes them).
function decodePng(png) {
  let at = 8;
  let width, height, channels;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = { 2: 3, 6: 4 }[body[9]];
      if (body[8] !== 8 || !channels || body[12] !== 0) throw new Error("unexpected PNG layout");
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const corner = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      const paeth = () => {
        const p = left + up - corner;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        return a <= b && a <= c ? left : b <= c ? up : corner;
      };
      const predicted = [0, left, up, (left + up) >> 1, paeth()][filter];
      pixels[y * stride + x] = (value + predicted) & 255;
    }
  }
  return { width, height, channels, pixels };
}

// The preview's pixels now.
async function preview(page) {
  return decodePng(await page.screenshot({ clip: PREVIEW }));
}

// The spread of a picture's luminance, 0 to 255: 0 for a blank one.
function spread({ pixels, channels }) {
  const values = [];
  for (let i = 0; i < pixels.length; i += channels) {
    values.push(0.2126 * pixels[i] + 0.7152 * pixels[i + 1] + 0.0722 * pixels[i + 2]);
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
}

// The mean absolute difference of two pictures of the same size, 0 to 255.
function difference(a, b) {
  let total = 0;
  for (let i = 0; i < a.pixels.length; i++) total += Math.abs(a.pixels[i] - b.pixels[i]);
  return total / a.pixels.length;
}

// Waits until the preview shows a picture (not a blank panel); the milliseconds waited.
async function waitForPreview(page, timeout = 30000) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (spread(await preview(page)) > 8) return Date.now() - start;
    await page.waitForTimeout(100);
  }
  return null;
}

// Waits until the preview stops changing (the same picture twice, 300 ms apart); that
// picture.
async function waitForStill(page, timeout = 15000) {
  const start = Date.now();
  let last = await preview(page);
  while (Date.now() - start < timeout) {
    await page.waitForTimeout(300);
    const now = await preview(page);
    if (difference(last, now) === 0) return now;
    last = now;
  }
  return last;
}

// Waits until the preview differs from `before` and then stops changing; that picture.
async function waitForChange(page, before, timeout = 15000) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (difference(before, await preview(page)) > 5) return waitForStill(page);
    await page.waitForTimeout(200);
  }
  return preview(page);
}

// Waits until the page's live region (the status line and questions) says `text`.
async function waitForStatus(page, text, timeout = 15000) {
  try {
    await page.waitForFunction(
      (t) => document.getElementById("texgraph_status")?.textContent.includes(t),
      text,
      { timeout },
    );
    return true;
  } catch {
    return false;
  }
}

// The entries of a zip of stored (uncompressed) files, as the page makes them.
function readZip(zip) {
  const entries = [];
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    if (zip.readUInt16LE(at + 8) !== 0) throw new Error("a zip entry is compressed");
    const name = zip.toString("utf8", at + 30, at + 30 + nameLength);
    const start = at + 30 + nameLength + extra;
    entries.push({ name, data: zip.subarray(start, start + size) });
    at = start + size;
  }
  return entries;
}

// Takes the download the click at (x, y) starts, saved as OUT_DIR/name.
async function downloadOf(page, x, y, name) {
  const download = page.waitForEvent("download", { timeout: 60000 });
  await page.mouse.click(x, y);
  const file = await download;
  const path = join(out, name);
  await file.saveAs(path);
  return { path, suggested: file.suggestedFilename() };
}

function render(graph, ...args) {
  execFileSync(cli, ["render", join(root, "graphs", graph), ...args]);
}

async function settle(page) {
  await page.waitForTimeout(500);
}

try {
  // 1. The page as it opens: the default graph and its preview.
  let context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  const start = Date.now();
  const first = await open(context, base);
  const shown = await waitForPreview(first);
  const firstPreview = shown === null ? null : Date.now() - start;
  await first.screenshot({ path: join(out, "default.png") });
  check(shown !== null, `the default graph's preview shows (first preview ${firstPreview} ms after the page was asked for)`);
  check(first.errors.length === 0, `the page loads with no console error ${JSON.stringify(first.errors)}`);
  await first.close();

  // 2. A share link of graphs/marble.json, and its PNG export against the CLI's.
  const json = readFileSync(join(root, "graphs/marble.json"));
  const link = `${base}#graph=${deflateRawSync(json, { level: 9 }).toString("base64url")}`;
  const page = await open(context, link);
  check((await waitForPreview(page)) !== null, "the marble link opens and renders");
  await page.screenshot({ path: join(out, "marble_link.png") });
  await page.mouse.move(500, 650);
  await page.keyboard.press("Control+e");
  await settle(page);
  await page.screenshot({ path: join(out, "export_dialog.png") });
  const png = await downloadOf(page, 46, 202, "exported.png"); // the dialog's Export button
  render("marble.json", "-o", join(out, "cli.png"), "--size", "1024");
  const samePng = Buffer.compare(readFileSync(png.path), readFileSync(join(out, "cli.png"))) === 0;
  check(samePng, `the exported ${png.suggested} equals texgraph render's, byte for byte`);
  await page.mouse.click(120, 129); // the format's list
  await settle(page);
  await page.mouse.click(127, 196); // EXR 32-bit float
  await settle(page);
  const exr = await downloadOf(page, 46, 202, "exported.exr");
  render("marble.json", "-o", join(out, "cli.exr"), "--size", "1024");
  const sameExr = Buffer.compare(readFileSync(exr.path), readFileSync(join(out, "cli.exr"))) === 0;
  check(sameExr, `the exported ${exr.suggested} (32-bit float) equals texgraph render's, byte for byte`);

  // 3. An edit through the inspector: the wave's frequency, by its slider.
  await page.mouse.click(101, 202); // the dialog's Cancel button
  await page.mouse.click(330, 370); // the "veins: Wave" node's title: the preview shows it
  const before = await waitForStill(page);
  await page.mouse.click(1290, 173); // near the right end of the frequency slider
  const after = await waitForChange(page, before);
  await page.screenshot({ path: join(out, "edited.png") });
  check(difference(before, after) > 5, `the edit changes the preview (mean difference ${difference(before, after).toFixed(1)})`);
  await page.waitForTimeout(1000); // the recovery copy is kept half a second after an edit

  // 4. Reloading offers the unsaved edit back.
  await page.reload();
  const offered = await waitForStatus(page, "Restore unsaved work?");
  await settle(page);
  await page.screenshot({ path: join(out, "restore_offered.png") });
  check(offered, "reloading the page offers the unsaved edit back");
  check(page.errors.length === 0, `no console error through export, edit and reload ${JSON.stringify(page.errors)}`);
  await context.close();

  // 5. A preset's set, as one zip: the glTF preset of graphs/fbm.json.
  context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  const fbm = readFileSync(join(root, "graphs/fbm.json"));
  const set = await open(context, `${base}#graph=${deflateRawSync(fbm, { level: 9 }).toString("base64url")}`);
  await waitForPreview(set);
  await set.mouse.move(500, 650);
  await set.keyboard.press("Control+e");
  await settle(set);
  await set.mouse.click(120, 87); // the preset's list
  await settle(set);
  await set.mouse.click(92, 133); // gltf
  await settle(set);
  await set.screenshot({ path: join(out, "preset_dialog.png") });
  const zip = await downloadOf(set, 46, 214, "exported.zip");
  const folder = join(out, "cli_gltf");
  rmSync(folder, { recursive: true, force: true });
  render("fbm.json", "--preset", "gltf", "--size", "1024", "-o", `${folder}/`);
  const entries = readZip(readFileSync(zip.path)).sort((a, b) => (a.name < b.name ? -1 : 1));
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name).slice(folder.length + 1))
    .sort();
  const sameSet =
    entries.length > 1 &&
    JSON.stringify(entries.map((e) => e.name)) === JSON.stringify(files) &&
    entries.every((e) => Buffer.compare(e.data, readFileSync(join(folder, e.name))) === 0);
  check(sameSet, `the preset's set ${zip.suggested} holds the CLI's files, byte for byte (${entries.map((e) => e.name).join(", ")} / ${files.join(", ")})`);
  await context.close();

  // 6. Files handed to the page: a graph through File → Open's picker, one dropped.
  context = await browser.newContext({ viewport: VIEWPORT });
  const handed = await open(context, base);
  await waitForPreview(handed);
  const chooser = handed.waitForEvent("filechooser", { timeout: 10000 });
  await handed.mouse.click(19, 11); // File
  await settle(handed);
  await handed.mouse.click(37, 57); // Open…
  await (await chooser).setFiles(join(root, "graphs/wood.json"));
  check(await waitForStatus(handed, "opened /opened/wood.json"), "File → Open takes a graph from the browser's file picker");
  const dropped = await handed.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], "clouds.json", { type: "application/json" }));
    return transfer;
  }, readFileSync(join(root, "graphs/clouds.json"), "utf8"));
  for (const type of ["dragenter", "dragover", "drop"]) {
    await handed.dispatchEvent("#texgraph_canvas", type, { dataTransfer: dropped });
  }
  check(await waitForStatus(handed, "opened /opened/clouds.json"), "a graph dropped on the page opens");
  await handed.screenshot({ path: join(out, "dropped.png") });
  await context.close();

  // 7. A broken link: its error over the example graph, in a fresh browser profile.
  context = await browser.newContext({ viewport: VIEWPORT });
  const broken = await open(context, `${base}#graph=${link.split("#graph=")[1].slice(0, 40)}`);
  const said = await waitForStatus(broken, "This link cannot be opened");
  const behind = await waitForPreview(broken);
  await broken.screenshot({ path: join(out, "broken_link.png") });
  check(said && behind !== null, "a broken link shows its error, with the example graph behind it");
  await context.close();
} finally {
  await browser.close();
  server.close();
}

if (failures.length > 0) {
  console.log(`${failures.length} browser check(s) failed; screenshots in ${out}`);
  process.exit(1);
}
console.log(`browser checks passed; screenshots in ${out}`);
