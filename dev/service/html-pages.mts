/** Web pages that stand where a client expects JSON: nginx's error pages, and a gateway's web console. */

/** nginx's own page for an error status, e.g. `502 Bad Gateway`. */
export function nginxPage(status: string): string {
	return `<html>
<head><title>${status}</title></head>
<body>
<center><h1>${status}</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
}

/** The page a gateway's web console answers, with 200, to a path its API does not serve. */
export const consolePage = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Gateway console</title></head>
<body><div id="app">Sign in to manage your keys.</div></body>
</html>
`;
