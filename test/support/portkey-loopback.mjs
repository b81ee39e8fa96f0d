/**
 * Preloaded into the Portkey gateway's process by test/support/portkey.cts (`node --import`): Portkey has no
 * option for the address it listens on and takes every interface, so its server is made to listen on
 * 127.0.0.1 only, and the address and port it got (it is started with --port=0) are printed for the test to
 * read and check.
 */
import { Server } from 'node:net';

const listen = Server.prototype.listen;
Server.prototype.listen = function (port, ...rest) {
	if (typeof port !== 'number') return listen.call(this, port, ...rest);
	const callback = rest.find((arg) => typeof arg === 'function');
	this.once('listening', () => {
		const { address, port: bound } = this.address();
		console.log(`portkey listening on ${address}:${bound}`);
	});
	return listen.call(this, port, '127.0.0.1', ...(callback ? [callback] : []));
};
