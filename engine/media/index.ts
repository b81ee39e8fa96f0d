/**
 * Images and audio, as the engine's front door gives them (`media.`): the operations (one row each, in
 * `operations/`), the client that calls them (`MediaClient`, which also says what an operation calls, its
 * Model list's kind, its Options and an item's checked request), and what the chat nodes share of it (the
 * images of a chat reply, an item's binary data, a file's type by its bytes).
 *
 * `operations/`: one row per operation, `operation.ts` its shape: its endpoint as a ServiceError names it,
 * its path per gateway shape, its Options and own fields, its body made once admitted and its reader
 * (speech's and a transcript's in their rows, the images' shared in `read-images.ts`), and its notice
 * (`image-count.ts`: images asked for and made that differ);
 * `operations/index.ts` what is made from the rows: `OPERATIONS`, `MEDIA_OPTIONS`, `callOf`,
 * `modelKindOf`. `client.ts`:
 * `MediaClient.call(operation, input)`, one request per item through `requests.ts`; its statics `callOf`,
 * `modelKindOf`, `OPTIONS` and `request`, what the node shows and checks of an operation. `media-request.ts`:
 * `mediaRequest`, the Model and Options of an operation, Extra Body kept off the fields it sets, the node
 * saying who sets them. `request.ts`: what the rows share: multipart parts, `checkRecordingSize`,
 * `imageUpload` and `recordingUpload` named and typed by their bytes. `options.ts`: the Options two or
 * more operations share. `item-files.ts`; `multipart.ts` (`multipartBody`: one Buffer and its
 * Content-Type, which both routes send unchanged); `sniff.ts` (image and audio types by their first
 * bytes); `read-images.ts` (also a chat reply's `message.images`). Failures: `MediaReplyError`,
 * `video/`: the video jobs (`job.ts`: submit once, poll, download), the three shapes as rows (`shapes.ts`), their
 * Options (`options.ts`), reached through `MediaClient.video`. `VideoJobError` for a job without a video.
 * `failures/kinds/media.ts` (content policy, a model the operation refuses, an upload too large) and
 * `kinds/endpoint.ts`, read from the error's `endpoint`.
 */
export { MediaClient } from './client';
export type { InputOf, MediaOperation } from './operations';
export type { ItemUpload } from './operations/operation';
export { checkRecordingSize } from './request';
export type { MediaRequest } from './request';
export { messageImages } from './read-images';
export type { ReplyImage } from './read-images';
export { binaryProperty, binarySource } from './item-files';
export type { BinaryFile, ItemBinaries } from './item-files';
export { notPdf, sniffImage } from './sniff';
