// Writes queries.json: the judged query set over the demo catalog. Each query states, in
// plain rules over a product's type (the first clause of its description), category, tags
// and colour (the slug of its product link), what a shopper would call a perfect (2) or a
// useful (1) answer; everything else is 0. The rules are written from the shopper's intent,
// never from any engine's output. Run: node bench/relevance/judge.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = join(here, '../../apps/gateway/data/demo/products.ndjson');
const products = readFileSync(catalog, 'utf8').trim().split('\n').map((line) => JSON.parse(line));

const type = (p) => p.description.split(/[,.]/)[0].trim().toLowerCase();
const cat = (p) => p.category.toLowerCase();
const tagged = (p, re) => p.tags.some((t) => re.test(t));
const colour = (p) => (p.attributes.link?.[0] ?? '').toLowerCase();
const is = (re) => (p) => re.test(type(p));
const isCover = (p) => /^(cover|.* cover$)/.test(type(p)) || /cushion|pad|cover/.test(type(p));

// kind: "keyword" queries use the catalog's own words; "paraphrase" queries avoid the words of
// the products they want (checked: the paraphrase's content words do not occur in the 2-graded titles).
const QUERIES = [
  ['bar stool', 'keyword', (p) => (/^bar stool/.test(type(p)) ? 2 : /stool/.test(type(p)) ? 1 : 0)],
  ['corner sofa', 'keyword', (p) => (isCover(p) ? 0 : /corner sofa|modular corner sofa/.test(type(p)) ? 2 : /sofa/.test(type(p)) && !/section/.test(type(p)) ? 1 : 0)],
  ['tv bench', 'keyword', (p) => (/^tv bench/.test(type(p)) ? 2 : /tv|media/.test(type(p)) ? 1 : 0)],
  ['chest of drawers', 'keyword', (p) => (/chest of \d+ drawers/.test(type(p)) ? 2 : /drawer unit|chest/.test(type(p)) ? 1 : 0)],
  ['bunk bed', 'keyword', (p) => (/bunk bed/.test(type(p)) ? 2 : /loft bed/.test(type(p)) ? 1 : 0)],
  ['office chair', 'keyword', (p) => (/office chair|swivel chair|conference chair/.test(type(p)) ? 2 : /desk chair/.test(type(p)) ? 1 : 0)],
  ['coffee table', 'keyword', (p) => (/^coffee table/.test(type(p)) ? 2 : /side table|nest of tables|tray table/.test(type(p)) ? 1 : 0)],
  ['bookcase with glass doors', 'keyword', (p) => (/bookcase with .*glass/.test(type(p)) ? 2 : /bookcase|glass-door cabinet/.test(type(p)) ? 1 : 0)],
  ["children's desk chair", 'keyword', (p) => (/children's desk chair/.test(type(p)) ? 2 : /children's chair|junior chair/.test(type(p)) ? 1 : 0)],
  ['outdoor table and chairs', 'keyword', (p) => (cat(p) === 'outdoor furniture' && /table.*chairs|chairs.*table|conversation set|table\+/.test(type(p)) ? 2 : cat(p) === 'outdoor furniture' && /table|chair/.test(type(p)) ? 1 : 0)],
  ['bedside table', 'keyword', (p) => (/^bedside table/.test(type(p)) ? 2 : /chest of 2 drawers|side table/.test(type(p)) ? 1 : 0)],
  ['sofa bed', 'keyword', (p) => (isCover(p) ? 0 : /sofa-bed|sofa bed/.test(type(p)) ? 2 : /day-bed|chair-bed/.test(type(p)) ? 1 : 0)],
  ['kitchen trolley', 'keyword', (p) => (/^kitchen trolley/.test(type(p)) ? 2 : /trolley|kitchen island/.test(type(p)) ? 1 : 0)],
  ['wardrobe with sliding doors', 'keyword', (p) => (/wardrobe/.test(type(p)) && /sliding/.test(p.description.toLowerCase() + p.title.toLowerCase()) ? 2 : /wardrobe/.test(type(p)) ? 1 : 0)],
  ['dining table with 6 chairs', 'keyword', (p) => (/table.*6 .*chairs|table\+6/.test(type(p)) ? 2 : /table.*chairs|table\+\d|extendable table|dining table/.test(type(p)) ? 1 : 0)],
  ['white shelving unit', 'keyword', (p) => (/^shelving unit/.test(type(p)) && /white/.test(colour(p)) ? 2 : /^shelving unit/.test(type(p)) ? 1 : 0)],
  ['swivel chair', 'keyword', (p) => (/swivel/.test(type(p)) ? 2 : /office chair/.test(type(p)) ? 1 : 0)],
  ['rocking chair', 'keyword', (p) => (/rocking-chair|rocking chair/.test(type(p)) ? 2 : /armchair|easy chair|recliner/.test(type(p)) ? 1 : 0)],
  ['folding chair', 'keyword', (p) => (/folding chair/.test(type(p)) ? 2 : /chair/.test(type(p)) && /fold/.test(p.title.toLowerCase() + p.description.toLowerCase()) ? 1 : 0)],
  ['bar table', 'keyword', (p) => (/^bar table$|^bar table,|^bar table /.test(type(p)) && !/stool/.test(type(p)) ? 2 : /bar table/.test(type(p)) ? 1 : 0)],
  ['wall shelf', 'keyword', (p) => (/^wall shelf|wall-mounted shelf/.test(type(p)) ? 2 : /^shelf|wall-mounted shelving|wall upright\/shelves/.test(type(p)) ? 1 : 0)],
  ['footstool with storage', 'keyword', (p) => (isCover(p) ? 0 : /footstool with storage/.test(type(p)) ? 2 : /footstool|pouffe/.test(type(p)) ? 1 : 0)],
  ['armchair', 'keyword', (p) => (isCover(p) ? 0 : /^armchair|easy chair|wing chair|children's armchair/.test(type(p)) ? 2 : /recliner|rocking-chair|chair with armrests/.test(type(p)) ? 1 : 0)],
  ['sit stand desk', 'keyword', (p) => (/desk sit\/stand/.test(type(p)) ? 2 : /sit\/stand/.test(type(p)) ? 1 : 0)],
  ['storage box', 'keyword', (p) => (/^storage box/.test(type(p)) ? 2 : /storage case|box|basket/.test(type(p)) ? 1 : 0)],
  ['glass door cabinet', 'keyword', (p) => (/glass-door cabinet|cabinet with glass|glass door cabinet/.test(type(p)) ? 2 : /glass door|glass-door|glass doors/.test(type(p)) ? 1 : 0)],
  ['day bed with drawers', 'keyword', (p) => (/day-bed.*drawers/.test(type(p)) ? 2 : /day-bed/.test(type(p)) ? 1 : 0)],
  ['drawer unit on castors', 'keyword', (p) => (/drawer unit on castors/.test(type(p)) ? 2 : /drawer unit|on castors/.test(type(p)) ? 1 : 0)],
  ['room divider', 'keyword', (p) => (cat(p) === 'room dividers' ? 2 : 0)],
  ['conference table', 'keyword', (p) => (/conference table/.test(type(p)) ? 2 : /conference chair|meeting/.test(type(p)) ? 1 : 0)],
  ['chaise longue', 'keyword', (p) => (isCover(p) ? 0 : /chaise longue/.test(type(p)) ? 2 : /sofa with chaise|corner sofa/.test(type(p)) ? 1 : 0)],
  ['black bed frame with storage', 'keyword', (p) => (/bed frame.*storage|bed frame w storage|bed frame with \d+ (drawers|storage)/.test(type(p)) ? (/black/.test(colour(p)) ? 2 : 1) : 0)],
  // Paraphrases: no content word of the query appears in the products graded 2.
  ['crib for a newborn', 'paraphrase', (p) => (/^cot/.test(type(p)) ? 2 : cat(p) === 'nursery furniture' ? 1 : 0)],
  ['somewhere for a toddler to sleep', 'paraphrase', (p) => (/^cot|children's bed|junior bed|extendable bed|bed tent/.test(type(p)) ? 2 : cat(p) === "children's furniture" && /bed/.test(type(p)) ? 1 : 0)],
  ['something to hang my shirts and dresses in', 'paraphrase', (p) => (/wardrobe/.test(type(p)) ? 2 : /clothes rail|clothes rack/.test(type(p)) ? 1 : 0)],
  ['a couch for the living room', 'paraphrase', (p) => (isCover(p) ? 0 : /sofa/.test(type(p)) && !/section|cover|bed/.test(type(p)) ? 2 : /sofa|armchair/.test(type(p)) ? 1 : 0)],
  ['place to keep my books', 'paraphrase', (p) => (/^bookcase/.test(type(p)) ? 2 : /^shelving unit|wall shelf|^shelf/.test(type(p)) ? 1 : 0)],
  ['stand for my television', 'paraphrase', (p) => (/^tv bench|tv storage|media storage|cabinet combination for tv|tv unit/.test(type(p)) ? 2 : cat(p) === 'tv & media furniture' ? 1 : 0)],
  ['dresser', 'paraphrase', (p) => (/chest of \d+ drawers/.test(type(p)) ? 2 : /drawer unit|dressing table/.test(type(p)) ? 1 : 0)],
  ['nightstand', 'paraphrase', (p) => (/^bedside table/.test(type(p)) ? 2 : /chest of 2 drawers|side table/.test(type(p)) ? 1 : 0)],
  ['tall seat for a kitchen counter', 'paraphrase', (p) => (/^bar stool/.test(type(p)) ? 2 : /stool/.test(type(p)) ? 1 : 0)],
  ['somewhere to sit in the garden', 'paraphrase', (p) => (cat(p) === 'outdoor furniture' && /chair|bench|sofa|stool|armchair|lounger/.test(type(p)) && !isCover(p) ? 2 : cat(p) === 'outdoor furniture' ? 1 : 0)],
  ['comfy seat to relax and read in', 'paraphrase', (p) => (isCover(p) ? 0 : /^armchair|easy chair|recliner|reclining|rocking-chair|chaise longue/.test(type(p)) ? 2 : /sofa|footstool/.test(type(p)) && !/section/.test(type(p)) ? 1 : 0)],
  ['seats for kids', 'paraphrase', (p) => (/children's (chair|armchair|stool|desk chair)|junior chair|children's .*chair/.test(type(p)) ? 2 : cat(p) === "children's furniture" && /stool|bench/.test(type(p)) ? 1 : 0)],
  ['rolling cart for serving food', 'paraphrase', (p) => (/trolley/.test(type(p)) ? 2 : /on castors/.test(type(p)) ? 1 : 0)],
  ['family dinner set for four people', 'paraphrase', (p) => (/table.*4 .*chairs|table\+4/.test(type(p)) && cat(p) !== 'outdoor furniture' ? 2 : /table.*chairs|table\+\d|dining table|extendable table/.test(type(p)) ? 1 : 0)],
  ['workstation for my computer at home', 'paraphrase', (p) => (/^desk|desk combination|workspace|computer/.test(type(p)) ? 2 : /office chair|drawer unit|sit\/stand/.test(type(p)) ? 1 : 0)],
  ['showcase for my porcelain figurines', 'paraphrase', (p) => (/glass-door cabinet|cabinet with glass|glass door cabinet|display/.test(type(p)) ? 2 : /glass door|glass-door|bookcase with/.test(type(p)) ? 1 : 0)],
  ['where overnight guests can sleep in the lounge', 'paraphrase', (p) => (isCover(p) ? 0 : /sofa-bed|sofa bed|day-bed|chair-bed/.test(type(p)) ? 2 : /bed/.test(type(p)) && cat(p) === 'sofas & armchairs' ? 1 : 0)],
];

const queries = QUERIES.map(([text, kind, grade], i) => {
  const judgments = {};
  for (const p of products) {
    const g = grade(p);
    if (g > 0) judgments[p.id] = g;
  }
  return { id: `q${String(i + 1).padStart(2, '0')}`, text, kind, judgments };
});
for (const q of queries) {
  const twos = Object.values(q.judgments).filter((g) => g === 2).length;
  if (twos === 0) throw new Error(`query ${JSON.stringify(q.text)} has no product graded 2`);
}
writeFileSync(
  join(here, 'queries.json'),
  JSON.stringify({ catalog: 'apps/gateway/data/demo/products.ndjson', grades: { 2: 'what the shopper asked for', 1: 'a useful alternative', 0: 'not relevant (implicit)' }, queries }, null, 1) + '\n',
);
const kinds = queries.reduce((m, q) => ({ ...m, [q.kind]: (m[q.kind] ?? 0) + 1 }), {});
console.log(`wrote ${queries.length} queries`, kinds);
for (const q of queries) {
  const g = Object.values(q.judgments);
  console.log(q.id, q.kind.padEnd(10), q.text.padEnd(48), 'grade2', g.filter((x) => x === 2).length, 'grade1', g.filter((x) => x === 1).length);
}

// Transparency: for each paraphrase, the share of its 2-graded products whose title or
// description holds one of the query's content words (exact lower-case word match).
const FILLER = new Set('a an and the for to of in on at my me i some something somewhere where can with from place'.split(' '));
for (const q of queries.filter((x) => x.kind === 'paraphrase')) {
  const words = q.text.toLowerCase().split(/[^a-z0-9']+/).filter((w) => w && !FILLER.has(w));
  const twos = products.filter((p) => q.judgments[p.id] === 2);
  const hit = twos.filter((p) => words.some((w) => new RegExp(`\\b${w}\\b`).test(`${p.title} ${p.description}`.toLowerCase())));
  console.log(`paraphrase ${q.id}: ${hit.length}/${twos.length} perfect answers share a word with the query`);
}
