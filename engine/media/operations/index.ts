/**
 * The image and audio operations, one row each (`operation.ts`), and what is made from the rows: each
 * operation's input and answer, Options and own fields.
 */
import { edit } from './edit';
import { generate } from './generate';
import { speak } from './speak';
import { transcribe } from './transcribe';
import { translate } from './translate';

/** Every operation of the media node, by the name its row gives it. */
export const OPERATIONS = { generate, edit, transcribe, translate, speak };

export type MediaOperation = keyof typeof OPERATIONS;

type Row<N extends MediaOperation> = (typeof OPERATIONS)[N];

/** What an operation takes, and what it answers. */
export type InputOf<N extends MediaOperation> = Parameters<Row<N>['body']>[0];
export type AnswerOf<N extends MediaOperation> = ReturnType<Row<N>['read']>;

/** The wire fields an operation sets itself, which the node names (`the Prompt field sets`). */
export type OwnField<N extends MediaOperation> = Row<N>['ownFields'][number];

/** The own Options of each operation, in the order the UI lists them. */
export const MEDIA_OPTIONS = Object.fromEntries(
	Object.entries(OPERATIONS).map(([name, row]) => [name, row.options]),
) as { [N in MediaOperation]: Row<N>['options'] };

/** What an operation calls, as the node's Operation list says it: `POST /audio/speech`. */
export const callOf = (operation: MediaOperation) => `POST /${OPERATIONS[operation].paths.openai}`;

/** The kind of model an operation calls (its Model list's). */
export const modelKindOf = (operation: MediaOperation) => OPERATIONS[operation].models;
