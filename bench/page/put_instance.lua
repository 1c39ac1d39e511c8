-- bench/page/put_instance.lua: wrk script: every request PUTs a new version of one workflow instance
-- document of about 40 KB (an instance and 300 stage instances, as a status document holds them), so
-- that the instances page's reader (src/gsm/page_index.h) parses each version it gets to.
local version = 0
wrk.method = "PUT"
wrk.headers["Content-Type"] = "text/turtle"
local lines = {"@prefix gsm: <http://purl.org/gsm/vocab#> .\n",
               "<#it> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#root> ; gsm:hasState gsm:active ;\n",
               "  gsm:inArtifactInstance <#it> .\n"}
for i = 1, 300 do
  lines[#lines + 1] = string.format("<#s%d> a gsm:StageInstance ; gsm:isInstanceOf <../models/m#s%d> ;\n" ..
                                    "  gsm:inArtifactInstance <#it> ; gsm:hasState gsm:inactive .\n", i, i)
end
local document = table.concat(lines)

request = function()
  version = version + 1
  return wrk.format(nil, nil, nil, document .. "# version " .. version .. "\n")
end
