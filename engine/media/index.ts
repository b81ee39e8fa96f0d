/**
 * Images and audio, as the engine's front door gives them (`media.`): the operations (one row each, in
 * `operations/`), an item's request and the client that calls them, and what the chat nodes share of it (the
 * images of a chat reply, an item's binary data, a file's type by its bytes).
 */
export { MediaClient } from './client';
export { mediaRequest } from './media-request';
export { callOf, MEDIA_OPTIONS } from './operations';
export type { InputOf, MediaOperation } from './operations';
export type { ItemUpload } from './operations/operation';
export { checkRecordingSize } from './request';
export type { MediaRequest } from './request';
export { messageImages } from './read-images';
export type { ReplyImage } from './read-images';
export { binaryProperty, binarySource } from './item-files';
export type { BinaryFile, ItemBinaries } from './item-files';
export { notPdf, sniffImage } from './sniff';
