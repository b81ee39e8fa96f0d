/**
 * Images and audio, as the engine's front door gives them (`media.`): the operations' options, requests and
 * client, and the images a reply holds.
 */
export { MediaClient } from './client';
export type { MediaBody } from './client';
export { multipartBody } from './multipart';
export type { MediaFile } from './multipart';
export { MEDIA_OPTIONS } from './options';
export { MEDIA_PATHS } from './paths';
export type { MediaOperation } from './paths';
export { downloadedImage, messageImages } from './read-images';
export type { ReplyImage } from './read-images';
export {
	checkRecordingSize,
	editParts,
	generationBody,
	imagePrompt,
	imageUpload,
	MEDIA_FIELDS,
	mediaRequest,
	recordingUpload,
	speechBody,
	transcriptionParts,
} from './request';
export type { ItemFile, MediaRequest } from './request';
export { binaryProperty, binarySource } from './item-files';
export type { BinaryFile, ItemBinaries } from './item-files';
export { notPdf, sniffImage } from './sniff';
