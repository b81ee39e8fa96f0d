/**
 * Images and audio, as the engine's front door gives them (`media.`): the operations (one row each, in
 * `operations/`), the client that calls them (`MediaClient`, which also says what an operation calls, its
 * Options and an item's checked request), and what the chat nodes share of it (the
 * images of a chat reply, an item's binary data, a file's type by its bytes).
 */
export { MediaClient } from './client';
export type { InputOf, MediaOperation } from './operations';
export type { ItemUpload } from './operations/operation';
export { checkRecordingSize } from './request';
export type { MediaRequest } from './request';
export { downloadedImage, messageImages } from './read-images';
export type { ReplyImage } from './read-images';
export { binaryProperty, binarySource } from './item-files';
export type { BinaryFile, ItemBinaries } from './item-files';
export { notPdf, sniffImage } from './sniff';
