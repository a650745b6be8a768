// Typesets the Terms of Service and the Refund Policy into the PDF the footer links to, from the same text
// the English dialogs show (src/locales/en/legal.json). In English only, the binding version, as the dialogs
// in other languages say: pdfkit's built-in fonts have no Cyrillic or Chinese. Runs after `vite build`, into
// the same output folder.
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { POLICIES_EFFECTIVE, type Policy, TERMS_PDF_PATH } from '../src/components/legal/policies.ts';
import english from '../src/locales/en/legal.json' with { type: 'json' };
import { webOutDir } from './out-dir';

const INK = '#0f172a';
const MUTED = '#475569';
const ACCENT = '#4338ca';

function typeset(document: PDFKit.PDFDocument, policy: Policy) {
  document.font('Helvetica-Bold').fontSize(22).fillColor(INK).text(policy.title);
  document
    .moveDown(0.2)
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(english.effective.replace('{{year}}', POLICIES_EFFECTIVE));
  document
    .moveDown(0.8)
    .strokeColor(ACCENT)
    .lineWidth(1.5)
    .moveTo(document.page.margins.left, document.y)
    .lineTo(document.page.width - document.page.margins.right, document.y)
    .stroke();
  for (const section of policy.sections) {
    document.moveDown(1.2).font('Helvetica-Bold').fontSize(13).fillColor(INK).text(section.heading);
    for (const paragraph of section.paragraphs) {
      document.moveDown(0.4).font('Helvetica').fontSize(11).fillColor(INK).text(paragraph, { lineGap: 3 });
    }
  }
}

const file = path.join(webOutDir(), TERMS_PDF_PATH);
const document = new PDFDocument({
  size: 'A4',
  margins: { top: 64, bottom: 64, left: 64, right: 64 },
  // A fixed date keeps the file identical from build to build while the text is.
  info: {
    Title: `${english.terms.title} and ${english.refund.title}`,
    Subject: 'Terms of Service and Refund Policy',
    CreationDate: new Date(Date.UTC(2024, 0, 1)),
  },
  lang: 'en',
  displayTitle: true,
  pdfVersion: '1.7',
});
const written = finished(document.pipe(createWriteStream(file)));
typeset(document, english.terms);
document.addPage();
typeset(document, english.refund);
document.end();
await written;
console.log(`terms PDF: ${path.relative(process.cwd(), file)}`);
