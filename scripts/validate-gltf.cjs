// Runs the Khronos glTF validator on each .gltf named on the command line (see
// validate-gltf.sh, which installs the validator and sets NODE_PATH). Exits 1 when any
// report has an error or a warning.
"use strict";
const fs = require("fs");
const path = require("path");
const validator = require("gltf-validator");

const SEVERITIES = ["error", "warning", "info", "hint"];

async function validate(file) {
    const dir = path.dirname(path.resolve(file));
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
        uri: path.basename(file),
        format: "gltf",
        maxIssues: 0,
        writeTimestamp: false,
        externalResourceFunction: (uri) =>
            fs.promises
                .readFile(path.resolve(dir, decodeURIComponent(uri)))
                .then((data) => new Uint8Array(data)),
    });
    const issues = report.issues;
    console.log(
        `${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
            `${issues.numInfos} infos, ${issues.numHints} hints (validator ${report.validatorVersion})`
    );
    for (const message of issues.messages) {
        const severity = SEVERITIES[message.severity] || message.severity;
        const at = message.pointer ? ` at ${message.pointer}` : "";
        console.log(`  ${severity} ${message.code}${at}: ${message.message}`);
    }
    return issues.numErrors + issues.numWarnings === 0;
}

(async () => {
    let passed = 0;
    let failed = 0;
    for (const file of process.argv.slice(2)) {
        let clean = false;
        try {
            clean = await validate(file);
        } catch (error) {
            console.log(`${file}: could not be validated: ${error}`);
        }
        if (clean) {
            passed++;
        } else {
            failed++;
        }
    }
    // A closing line as test runners print one.
    console.log(`glTF: ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
})();
