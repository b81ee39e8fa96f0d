/**
 * The failure classes the nodes throw or tell apart, as the engine's front door gives them (`errors.`): a
 * field or value a user typed that cannot be sent (`InputError`), and the replies that cannot be read as asked
 * (`ReplyError`, and those of a structured reply and of the Chat Model's tool calls). The rest of `errors.ts`
 * is the engine's own.
 */
export {
	CutReplyError,
	InputError,
	ReplyError,
	StructuredReplyError,
	ToolArgumentsError,
	UnknownToolError,
} from './errors';
