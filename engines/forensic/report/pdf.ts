// The court-style report as PDF, rendered offline with pdfkit from the same blocks as the Markdown and HTML reports.
import PDFDocument from 'pdfkit';
import type { AnalysisView, CustodyView } from '../../core/contracts/forensic.js';
import { buildReport, type Block, type ReportDocument, type ReportMeta } from './document.js';

/** pdfkit's built-in fonts encode WinAnsi only: anything else is shown as '?' rather than as broken glyphs. */
export function pdfText(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
}

const BODY = 9;
const SMALL = 7;

function block(doc: PDFKit.PDFDocument, b: Block): void {
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  doc.x = doc.page.margins.left;
  switch (b.t) {
    case 'h': {
      const size = b.level === 1 ? 16 : b.level === 2 ? 13 : 10.5;
      if (b.level === 2 && doc.y > doc.page.height * 0.75) doc.addPage();
      doc.moveDown(b.level === 1 ? 0 : 0.6).font('Helvetica-Bold').fontSize(size).fillColor('#1b1f24').text(pdfText(b.text), { width });
      doc.moveDown(0.25);
      return;
    }
    case 'p':
      doc.font(b.muted ? 'Helvetica-Oblique' : 'Helvetica').fontSize(BODY).fillColor(b.muted ? '#5a6270' : '#1b1f24').text(pdfText(b.text), { width });
      doc.moveDown(0.4);
      return;
    case 'kv':
      for (const [k, v] of b.rows) {
        doc.font('Helvetica-Bold').fontSize(BODY).fillColor('#1b1f24').text(`${pdfText(k)}: `, { continued: true, width });
        doc.font(/^[0-9a-f]{64}$/.test(v) ? 'Courier' : 'Helvetica').text(pdfText(v));
      }
      doc.moveDown(0.4);
      return;
    case 'list':
      doc.font('Helvetica').fontSize(BODY).fillColor('#1b1f24').list(b.items.map(pdfText), { width, bulletRadius: 1.5 });
      doc.moveDown(0.4);
      return;
    case 'bars': {
      const top = doc.y;
      b.items.forEach(([label, value], i) => {
        const v = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
        const y = top + i * 12;
        doc.font('Helvetica').fontSize(SMALL + 1).fillColor('#1b1f24').text(pdfText(label), doc.page.margins.left, y, { width: 90, lineBreak: false });
        doc.rect(doc.page.margins.left + 95, y, 180, 8).fill('#eef1f5');
        doc.rect(doc.page.margins.left + 95, y, 180 * v, 8).fill('#2f6fb3');
        doc.fillColor('#1b1f24').text(v.toFixed(2), doc.page.margins.left + 280, y, { width: 40, lineBreak: false });
      });
      doc.x = doc.page.margins.left;
      doc.y = top + b.items.length * 12 + 4;
      return;
    }
    case 'graph':
      // The edge table that follows is the graph in the PDF.
      return;
    case 'table': {
      if (b.caption !== undefined) doc.font('Helvetica-Bold').fontSize(BODY).text(pdfText(b.caption));
      const mono = b.mono ?? [];
      doc.font('Helvetica').fontSize(SMALL).fillColor('#1b1f24');
      doc.table({
        maxWidth: width,
        defaultStyle: { border: 0.5, borderColor: '#c9ced6', padding: 2 },
        data: [
          b.head.map((h) => ({ text: pdfText(h), type: 'TH' as const, backgroundColor: '#eef1f5', font: { family: 'Helvetica-Bold', size: SMALL } })),
          ...b.rows.map((r) => r.map((v, i) => ({ text: pdfText(v), ...(mono.includes(i) ? { font: { family: 'Courier', size: SMALL - 1 } } : {}) }))),
        ],
      });
      doc.moveDown(0.5);
      return;
    }
  }
}

/** Lays out a report document as PDF bytes. */
export function renderPdfDocument(report: ReportDocument, options: { readonly creationDate?: Date } = {}): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      bufferPages: true,
      info: { Title: pdfText(report.title), Creator: 'Vitrine forensic', Producer: 'pdfkit', ...(options.creationDate ? { CreationDate: options.creationDate } : {}) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      for (const b of report.blocks) block(doc, b);
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        const bottom = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        doc.font('Helvetica').fontSize(SMALL).fillColor('#5a6270').text(`${pdfText(report.title)}  -  page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 24, { lineBreak: false });
        doc.page.margins.bottom = bottom;
      }
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error('the PDF could not be rendered'));
    }
  });
}

/** The court-style report as PDF. */
export function toPdf(view: AnalysisView, custody: CustodyView | null, meta: ReportMeta, options: { readonly creationDate?: Date } = {}): Promise<Buffer> {
  return renderPdfDocument(buildReport(view, custody, meta), options);
}
