-- bench/ldp/put.lua: wrk script: every request PUTs a new version of one small Turtle resource
-- (the version number changes, so each PUT really replaces the stored bytes).
local version = 0
wrk.method = "PUT"
wrk.headers["Content-Type"] = "text/turtle"

request = function()
  version = version + 1
  local body = '<#it> a <http://example.org/Door> ;\n  <http://example.org/state> "open" ;\n' ..
               '  <http://example.org/version> ' .. version .. ' .\n'
  return wrk.format(nil, nil, nil, body)
end
