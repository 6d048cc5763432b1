// One-off (issue 24): code comments that cite `decisions.md`, which lives outside this repository, are rewritten
// to cite the section of docs/product-rules.md holding the same rule: `docs/product-rules.md §<anchor>`.
//
//   node scripts/oneoff/cite-product-rules.mjs           rewrite every tracked source file in place
//   node scripts/oneoff/cite-product-rules.mjs --check   rewrite nothing; list what would change
//
// Idempotent: a rewritten file cites decisions.md no more, so a second run changes nothing. Files are found by
// `git ls-files`, so it runs the same after files move. Each citation gets its section from the first row of
// SECTIONS whose pattern matches the citation's own line (with the next one), else its comment around it; a
// citation no row matches, or a row naming a section docs/product-rules.md lacks, stops the run with a list
// (add a row and run again). Delete this script once the rewrite is merged.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULES_DOC = 'docs/product-rules.md';

/** What a citation is about → the section of docs/product-rules.md that states it. First match wins. */
const SECTIONS = [
  [/Outcomes and screens|four outcome screens/, 'outcome-screens'],
  [/intro step|waiting screen|cross-sell panel|title and the steps back/i, 'matching-screen'],
  [/purge|Removes SSN|grace period after the final outcome/i, 'sensitive-data'],
  [
    /Sec-GPC|Global Privacy Control|privacy requests a visitor|Privacy forms|as its placeholder says/,
    'privacy-requests',
  ],
  [
    /greet|Continue your application|Start over|unfinished|never resumes|resumes anyone|deep link|landing URL|pre-filled/i,
    'returning-visitors-and-sessions',
  ],
  [/session|browser alert|native dialog/i, 'returning-visitors-and-sessions'],
  [/progress bar|progress, |percentage/i, 'wizard-order-and-progress'],
  [/\$100|\$500|two readings/, 'loan-amounts'],
  [/Residence dur|10\+ Years|years × 12|stored as months/i, 'option-lists'],
  [/email domain|contains '@'/i, 'option-lists'],
  [/District|adds DC|state of the borrower's address/, 'option-lists'],
  [/18th|make someone 18|year alone|whole date|blanked silently|Day is required/i, 'date-of-birth'],
  [/NACHA|4 to 17|17 digits|17 characters/, 'bank-details'],
  [/title case|bank names/i, 'bank-details'],
  [/pay date|pay-date|30 days|weekend|holiday/i, 'pay-dates'],
  [/area code|NANP/i, 'phone-numbers'],
  [/masked|on file|encrypted at rest|redacted/i, 'sensitive-data'],
  [
    /sale without an address|lender will contact|no final status|3 pending|status 1/i,
    'lender-network-answers',
  ],
  [/lender-network protocol/i, 'lender-network-answers'],
  [/verifying/, 'outcome-screens'],
  [/2 s|Back from/, 'redirects'],
  [/street address|- \/ ' \( \) &/i, 'street-address-and-free-text'],
  [/plural|prefix spells|rank/i, 'suggestions'],
  [/Shown again|borrower again \(decisions\.md\)/, 'redirects'],
  [/option lists of spec §9/, 'option-lists'],
  [/copyright|current year|keeps the date/i, 'site-content'],
  [/server names|one hash per lead/i, 'field-names'],
  [
    /message|wording|FirstName|lastName|LicenseID|Invalid input|format only|Spec §5|kept exactly/i,
    'messages',
  ],
  [/wizard|step screens|besttimecontact|canonical/i, 'wizard-order-and-progress'],
  [/Arrow keys/, 'choice-steps'],
  [/what the borrower reads from the API/, 'messages'],
  [/sold screen says so/, 'lender-network-answers'],
  [/never got an answer/, 'privacy-requests'],
  [/the bar standing still|The bar grows/, 'wizard-order-and-progress'],
  [/reject screen/, 'outcome-screens'],
];

/** The anchor of each `## ` heading, as a Markdown renderer links it. */
function anchors(markdown) {
  return new Set(
    [...markdown.matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** A citation, with what names a section of decisions.md beside it: `decisions.md, "X"` or `decisions.md ("X")`. */
const CITATION = /decisions\.md(?:,\s*(?:\*\s*)?"[^"]*"|\s*\("[^"]*"\))?/g;

function sectionFor(text, offset) {
  const lineStart = text.lastIndexOf('\n', offset) + 1;
  const lines = text.slice(lineStart).split('\n');
  const own = lines.slice(0, 2).join('\n');
  const before = text.slice(0, lineStart).split('\n').slice(-4).join('\n');
  const around = `${before}\n${lines.slice(0, 4).join('\n')}`;
  for (const context of [own, around]) {
    const row = SECTIONS.find(([pattern]) => pattern.test(context));
    if (row) return row[1];
  }
  return undefined;
}

const check = process.argv.includes('--check');
const known = anchors(readFileSync(path.join(root, RULES_DOC), 'utf8'));
const missingSections = [...new Set(SECTIONS.map(([, anchor]) => anchor))].filter((a) => !known.has(a));
if (missingSections.length > 0) {
  console.error(`${RULES_DOC} has no section ${missingSections.map((a) => `§${a}`).join(', ')}`);
  process.exit(1);
}

const files = execFileSync(
  'git',
  ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mts', '*.mjs', '*.js', '*.css'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter((file) => file && !file.startsWith('scripts/oneoff/'));

const unmatched = [];
const changes = [];
const rewrites = new Map();
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  if (!text.includes('decisions.md')) continue;
  const rewritten = text.replace(CITATION, (citation, offset) => {
    const anchor = sectionFor(text, offset);
    const line = text.slice(0, offset).split('\n').length;
    if (!anchor) {
      unmatched.push(`${file}:${line}`);
      return citation;
    }
    changes.push(`${file}:${line} §${anchor}`);
    return `${RULES_DOC} §${anchor}`;
  });
  if (rewritten !== text) rewrites.set(file, rewritten);
}
if (unmatched.length > 0) {
  console.error(`No section for these citations (add a row to SECTIONS):\n  ${unmatched.join('\n  ')}`);
  process.exit(1);
}
if (!check && rewrites.size > 0) {
  for (const [file, text] of rewrites) writeFileSync(path.join(root, file), text);
  // A longer citation inside a string (a test's name) can push a line past the print width.
  execFileSync('npx', ['prettier', '--write', '--log-level=warn', ...rewrites.keys()], {
    cwd: root,
    stdio: 'inherit',
  });
}
console.log(changes.join('\n'));
console.log(`${changes.length} citation(s) ${check ? 'to rewrite' : 'rewritten'}.`);
