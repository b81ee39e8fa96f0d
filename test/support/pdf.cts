/**
 * A small PDF that shows the given lines of text (one page, Helvetica, an uncompressed content stream, a correct
 * cross-reference table): what tests hand the nodes to send, and what the local service reads back.
 */

/** A literal PDF string: backslashes and parentheses escaped. */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;

export function tinyPdf(lines: readonly string[]): Buffer {
	const shown = lines.map(
		(line, index) => `${index === 0 ? '' : '0 -16 Td '}${pdfString(line)} Tj`,
	);
	const content = `BT /F1 12 Tf 72 720 Td ${shown.join(' ')} ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((object, index) => {
		offsets.push(Buffer.byteLength(body, 'latin1'));
		body += `${index + 1} 0 obj\n${object}\nendobj\n`;
	});
	const xref = Buffer.byteLength(body, 'latin1');
	const entries = offsets
		.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)
		.join('');
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}
