/**
 * How wide a label is drawn, so that the boxes of the retrieval picture fit
 * their text in whatever font the viewer substitutes for Helvetica.
 *
 * The WASM Graphviz has no fonts: it sizes boxes by Arial's widths, and a
 * viewer without Helvetica or Arial (most Linux desktops and browsers there)
 * draws the text in DejaVu Sans, about 12 % wider, so the text overflowed
 * its box. Native `dot` fits because it measures the installed font. We size
 * boxes by DejaVu Sans, the widest of the usual substitutes: its advance
 * widths below are read from DejaVuSans.ttf (version 2.37, the `hmtx` table
 * through the `cmap`, 2048 units per em). Pure data and arithmetic.
 *
 * @example
 * textWidthPt("src/index.ts", 10); // 62.1
 */

const UNITS_PER_EM = 2048;

/** Advance widths of the printable ASCII characters, " " (32) to "~" (126). */
const ASCII_WIDTHS = [
  651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690,
  1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499,
  1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300,
  1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
];

/** The other characters the picture writes. */
const OTHER_WIDTHS: Record<string, number> = {
  "·": 651,
  "–": 1024,
  "—": 2048,
  "≥": 1716,
  "…": 2048,
  "→": 1716,
  "━": 1233,
  "┈": 1233,
  "╌": 1233,
  "▶": 1575,
};

/** Any other character: a digit's width, and a full em from the CJK blocks on (their fonts are square). */
function widthOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 32 && code <= 126) return ASCII_WIDTHS[code - 32]!;
  return OTHER_WIDTHS[char] ?? (code >= 0x2e80 ? UNITS_PER_EM : 1303);
}

/** Width in points of one line of text at `fontSize` points, in DejaVu Sans. */
export function textWidthPt(line: string, fontSize: number): number {
  let units = 0;
  for (const char of line) units += widthOf(char);
  return Math.round((units / UNITS_PER_EM) * fontSize * 10) / 10;
}
