/**
 * The requests in flight over a run as text, one line per second: the most in flight during that second
 * as a bar, how many requests the service admitted and how many it refused (429). Built from the service's
 * traffic timeline (one point per change) and its request log (every arrival, refused ones included).
 */
import type { TrafficReport } from '../../dev/service-client/local-service.cts';

interface Second {
	mostInFlight: number;
	started: number;
	refused: number;
}

/** The run's seconds from `from` (Unix ms) until its last event. */
function seconds(report: TrafficReport, arrivals: readonly number[], from: number): Second[] {
	const { timeline } = report;
	const end = Math.max(timeline.at(-1)?.at ?? from, ...arrivals);
	const count = Math.max(1, Math.ceil((end - from) / 1000));
	const result: Second[] = Array.from({ length: count }, () => ({
		mostInFlight: 0,
		started: 0,
		refused: 0,
	}));
	const slot = (at: number) =>
		result[Math.min(count - 1, Math.max(0, Math.floor((at - from) / 1000)))];
	let inFlight = 0;
	let next = 0;
	for (const [index, second] of result.entries()) {
		// The count in flight as the second begins, then every change during it.
		while (next < timeline.length && timeline[next].at < from + index * 1000)
			inFlight = timeline[next++].inFlight;
		second.mostInFlight = inFlight;
		while (
			next < timeline.length &&
			(timeline[next].at < from + (index + 1) * 1000 || index === count - 1)
		) {
			if (timeline[next].inFlight > inFlight) second.started++;
			inFlight = timeline[next++].inFlight;
			second.mostInFlight = Math.max(second.mostInFlight, inFlight);
		}
	}
	for (const at of arrivals) slot(at).refused++;
	for (const second of result) second.refused = Math.max(0, second.refused - second.started);
	return result;
}

export function inFlightPlot(
	report: TrafficReport,
	arrivals: readonly number[],
	from: number,
): string[] {
	const lines = seconds(report, arrivals, from);
	const width = Math.max(report.limit?.inFlight ?? 0, ...lines.map((line) => line.mostInFlight));
	return [
		'in flight: the most during the second; started: requests admitted; refused: 429s',
		`  second  ${'in flight'.padEnd(width + 4)}  started  refused`,
		...lines.map(
			(line, index) =>
				`  ${String(index).padStart(6)}  ${'#'.repeat(line.mostInFlight).padEnd(width)} ${String(line.mostInFlight).padStart(3)}  ` +
				`${String(line.started).padStart(7)}  ${String(line.refused).padStart(7)}`,
		),
	];
}
