-- wrk through an HTTP forward proxy: connect to the proxy, ask for the
-- absolute URI TARGET, with the Host field naming TARGET's authority (sbx
-- refuses a request whose Host disagrees with its URI).
wrk.path = os.getenv("TARGET")
wrk.headers["Host"] = wrk.path:match("^%a+://([^/]+)")
