/**
 * The video model `video-1`: it makes videos through the three shapes of video/ (jobs that take seconds, polled,
 * then downloaded). Asked for a chat completion it answers 400, as a video model behind a gateway does.
 */
import { releaseDate, type ModelDefinition } from './model.mts';
import { notForChat } from './not-for-chat.mts';

export interface VideoModel extends ModelDefinition {
	makesVideos: true;
}

const videoModel = (id: string): VideoModel => ({
	id,
	created: releaseDate,
	ownedBy: 'local-video',
	makesVideos: true,
	respond: notForChat(id, 'a video model', '/v1/videos'),
});

export const videoModels: VideoModel[] = [videoModel('video-1')];

export function isVideoModel(model: ModelDefinition): model is VideoModel {
	return 'makesVideos' in model;
}
