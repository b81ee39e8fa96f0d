/** Jest globalTeardown of the real-n8n tests: the n8n each jest worker shared (dev/n8n/shared-n8n.cts) stopped. */
import { stopSharedN8ns } from '../../../dev/n8n/shared-n8n.cts';

export default stopSharedN8ns;
