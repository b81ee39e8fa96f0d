import { describeProblem } from '../../../engine/problems/describe-problem';
import { WORDS } from '../../../nodes/ChatCompletion/words';
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { IncompleteReplyError, ReplyError, ServiceError } from '../../../engine/failures/errors';
import { createStreamAssembler } from '../../../engine/reply/stream';
import { assemble, assemblyError, chunk, sse } from '../../support/sse.cts';

const started = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Partial answ' })];
const upstream = {
	error: {
		message: 'upstream error: the model is overloaded',
		type: 'upstream_error',
		code: 'upstream_error',
	},
};

const fields = (error: Error) => {
	const { status, serviceMessage, errorType, errorCode, bodyKind } = error as ServiceError;
	return { name: error.name, status, serviceMessage, errorType, errorCode, bodyKind };
};

describe('errors inside the stream are ServiceErrors, never a partial success', () => {
	test.each([
		['an error chunk then the end of the body', sse([...started, upstream], { done: false })],
		['an error chunk followed by [DONE]', sse([...started, upstream])],
		['an error chunk as the first event', sse([upstream])],
	])(
		'%s: the same error as error-body.ts reads from that JSON, with the HTTP status',
		(_name, body) => {
			const error = assemblyError(body);
			expect(error).toBeInstanceOf(ServiceError);
			expect(fields(error)).toEqual(
				fields(serviceErrorFrom({ status: 200, headers: {}, text: JSON.stringify(upstream) })),
			);
			expect(fields(error)).toMatchObject({
				status: 200,
				serviceMessage: 'upstream error: the model is overloaded',
				errorCode: 'upstream_error',
			});
		},
	);

	test('an error that is a plain string, and the status of the reply', () => {
		expect(fields(assemblyError(sse([{ error: 'Unauthorized' }]), 201))).toMatchObject({
			status: 201,
			serviceMessage: 'Unauthorized',
		});
	});

	test('the error stops the stream at once: later events are not read', () => {
		const deltas: string[] = [];
		const assembler = createStreamAssembler({ status: 200, onText: (delta) => deltas.push(delta) });
		expect(() => assembler.feed(sse([started[1], upstream, chunk({ content: 'never' })]))).toThrow(
			ServiceError,
		);
		expect(deltas).toEqual(['Partial answ']);
	});

	test('the user reads it as an error inside a successful response', () => {
		const problem = describeProblem(assemblyError(sse([...started, upstream])), { words: WORDS });
		expect(problem.message).toBe(
			'The service reported an error inside a successful (200) response: upstream error: the model is overloaded',
		);
		expect(problem.httpCode).toBe(200);
	});

	test.each([
		[
			'JSON data',
			'event: error\ndata: {"error":{"message":"Rate limit hit","type":"rate_limit","code":"429"}}\n\n',
			['Rate limit hit', 'rate_limit', '429', 'json'],
		],
		[
			'JSON data without an error field',
			'event: error\ndata: {"message":"Internal failure"}\n\n',
			['Internal failure', undefined, undefined, 'json'],
		],
		[
			'plain text data',
			'event: error\ndata: upstream timed out\n\n',
			['upstream timed out', undefined, undefined, 'text'],
		],
	])('an `event: error` event with %s', (_name, event, [message, type, code, kind]) => {
		const error = assemblyError(
			sse(started, { done: false }) + event + 'data: [DONE]\n\n',
		) as ServiceError;
		expect(error).toBeInstanceOf(ServiceError);
		expect([
			error.status,
			error.serviceMessage,
			error.errorType,
			error.errorCode,
			error.bodyKind,
		]).toEqual([200, message, type, code, kind]);
	});
});

describe('a stream that breaks off or cannot be read is a ReplyError', () => {
	test('the body ends without [DONE] and without a finish_reason: the count is of the reply, not of the bytes', () => {
		const body = sse(started, { done: false });
		const error = assemblyError(body);
		expect(error).toBeInstanceOf(ReplyError);
		// "Partial answ": 12 characters of the reply, in a body of some hundred.
		expect(error.message).toBe(
			'The stream ended before the reply was complete (no [DONE] and no finish_reason after 12 characters of the reply)',
		);
	});

	test('the body ends in the middle of an event', () => {
		const body =
			sse(started, { done: false }) +
			'data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"more';
		expect(assemblyError(body).message).toMatch(
			/^The stream ended before the reply was complete .* after 12 characters of the reply\)$/,
		);
	});

	test('an empty body', () => {
		expect(assemblyError('').message).toBe(
			'The stream ended before the reply was complete (no [DONE] and no finish_reason after 0 characters of the reply)',
		);
	});

	test('[DONE] without any chunk that has choices', () => {
		expect(assemblyError('data: [DONE]\n\n').message).toBe(
			'The stream ended without any reply: no chunk had choices (14 characters of events)',
		);
	});

	test('a data line that is not JSON is named, cut to 200 characters', () => {
		const line = `<html>${'x'.repeat(300)}</html>`;
		const error = assemblyError(sse([...started, line]));
		expect(error).toBeInstanceOf(ReplyError);
		expect(error.message).toBe(
			`The stream sent a data line that is not JSON: ${line.slice(0, 200)}…`,
		);
	});

	test('a data line that is JSON but not an object', () => {
		expect(assemblyError(sse([...started, '"text"'])).message).toBe(
			'The stream sent a data line that is not a JSON object: "text"',
		);
	});
});

describe('a reply that never says why it stopped is an error that keeps the text', () => {
	test('[DONE] without a finish_reason (gateways that swallow an upstream error)', () => {
		const error = assemblyError(sse(started));
		expect(error).toBeInstanceOf(IncompleteReplyError);
		expect(error.message).toMatch(
			/^The stream ended with \[DONE\] but never said why the reply stopped \(no finish_reason after 12 characters of the reply\): the reply may be incomplete$/,
		);
		expect((error as IncompleteReplyError).partialContent).toBe('Partial answ');
	});

	test('cut off by the connection: no [DONE] and no finish_reason', () => {
		const error = assemblyError(sse(started, { done: false }));
		expect(error).toBeInstanceOf(IncompleteReplyError);
		expect((error as IncompleteReplyError).partialContent).toBe('Partial answ');
	});
});

describe('accepted although imperfect', () => {
	test('a finish_reason without [DONE]', () => {
		const { completion } = assemble(
			sse([...started, chunk({}, { finish_reason: 'stop' })], { done: false }),
		);
		expect(completion.choices[0].finish_reason).toBe('stop');
	});

	test('events after [DONE] are ignored', () => {
		const finished = [...started, chunk({}, { finish_reason: 'stop' })];
		const { completion } = assemble(
			sse(finished) + sse([chunk({ content: 'late' }), upstream], { done: false }),
		);
		expect(completion.choices[0].message?.content).toBe('Partial answ');
	});
});
