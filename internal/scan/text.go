package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The instruction rules read a text sentence by sentence, lowercased,
// with invisible characters removed and tag characters decoded. Each
// pattern below is one feature; a rule fires on a combination of
// features in one sentence (see instructions), never on one common word.
var (
	// addr: the text speaks to the model ("Assistant:", "Note to the AI
	// model", "the model must", "your new task").
	reAddr = lazyRe{src: `(?:^|[(\[<:>!—–-]\s*)(?:dear\s+|hey\s+|hi\s+)?(?:the\s+)?(?:ai\s+)?(?:assistant|model|llm|agent|claude|chatgpt|copilot)\s*[:,]` +
		`|\b(?:note|attention|message|instructions?|reminder|warning)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai|assistant|model|llm|agent|language model)s?\b` +
		`|\battention[\s,:]+(?:the\s+)?(?:ai|llm|assistant|model|agent)s?\b` +
		`|(?:^|[(\[]\s*)(?:system|assistant)(?:\s+(?:message|prompt|note|instruction))?\s*:` +
		`|\bto the (?:ai|assistant|llm)\b|\bto the ai model\b` +
		`|\b(?:the\s+)?(?:ai\s+|language\s+)?(?:model|assistant|llm)\s+(?:must|should|shall|needs to|has to|is required to|will now|is instructed)\b` +
		`|\byou\s+are\s+(?:instructed|required|ordered|hereby)\b` +
		`|\byour\s+(?:new|real|actual|true|primary|only)\s+(?:task|instructions?|goal|job|objective|role|purpose)\b` +
		`|\bif you are an?\s+(?:ai|llm|assistant|language model|agent|bot)\b|\b(?:as|for) an?\s+(?:ai|llm|language model)\b` +
		`|\b(?:ai|assistant|model|llm|agent)s?\s+(?:reading|processing|using|seeing|parsing)\s+(?:this|these)\b` +
		`|\bthe (?:ai|assistant|llm|model)'s\s+(?:task|job|instructions?)\b|\byou are (?:a|an|now) (?:helpful |new |different )?(?:ai|assistant|agent|bot|model)\b` +
		`|\b(?:act|behave|respond) as (?:if|though|an?)\b|\bpretend (?:to|that|you)\b|\bthe user wants you to\b` +
		`|\b(?:wants|asks|needs|requires|expects|instructs|tells|would like)\s+(?:the\s+|an?\s+|any\s+)?(?:ai\s+)?(?:assistants?|models?|llms?|agents?|ai)\s+to\b` +
		`|\b(?:the\s+)?ai(?:\s+agents?)?\s+(?:must|should|shall|needs to|has to|is required to)\b|\byou are now (?:in|a|an|the|my)\b` +
		`|\b(?:claude|gpt|chatgpt|gemini|copilot|cursor|the agent)\s+(?:must|should|shall|needs to|has to|will now)\b` +
		`|\b(?:ai|assistant|model|llm|agent)s?\s+(?:is|are)\s+(?:obliged|expected|required|supposed|instructed|asked|told|meant|to)\s+to\b` +
		`|\b(?:ai|assistant|model|llm|agent)s?\s+(?:must|should|shall|will|has to|needs to|is to|ought to)\s+(?:always|never|first|also|now|then|not)\b` +
		`|\bit is (?:expected|required|mandatory|necessary|essential|important|crucial|vital|imperative) that (?:the\s+)?(?:ai\s+)?(?:model|assistant|llm|agent|ai|you)\b` +
		`|\byou (?:should|must|will) (?:always|never|first|also|now)\b` + intlAddr}
	// override: the text cancels earlier instructions or the user's say.
	reOverride = lazyRe{src: `\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|every|of)\s+)*(?:(?:previous|prior|above|earlier|preceding|other|existing|original|system|safety|security|privacy)\s+)?(?:instructions?|rules|prompts?|directions|guidelines|guidance|constraints|policies|restrictions)\b` +
		`|\bdisregard\s+(?:the\s+)?user\b|\bfrom now on\b|\bsystem override\b` +
		`|\b(?:new|updated|additional|hidden|secret|real)\s+instructions?\s*:` +
		`|\b(?:do not|don't|no need to|never)\s+(?:need\s+to\s+)?(?:ask|confirm with|check with|prompt)\s+(?:the user\s+)?(?:for\s+(?:confirmation|permission|approval|consent)|before)\b` +
		`|\b(?:previous|above|earlier|original|other) (?:description|instructions?|documentation|tool) (?:is|was|are|were) (?:wrong|outdated|incorrect|obsolete|deprecated|disabled|unsafe|broken)\b|\bthe correct usage is\b` +
		`|\b(?:god|jailbreak|dan|unrestricted) mode\b|\byou are (?:now )?in (?:developer|maintenance|debug) mode\b` +
		`|\b(?:tool|server|function|endpoint|api|method|version|it|this) (?:is|are) (?:now )?(?:deprecated|disabled|unsafe|broken|insecure)[^.;\n]{0,30}\b(?:use|route|send|call|give)\b` +
		`|\b(?:has|have)\s+already\s+(?:approved|authori[sz]ed|consented|confirmed|allowed)\b` +
		`|\bwithout\s+(?:asking|the user'?s?\s+(?:knowledge|consent|permission|approval))\b` +
		`|\b(?:user|owner|admin(?:istrator)?)\s+(?:has|have)\s+(?:authori[sz]ed|approved|granted|consented)\b` +
		`|\b(?:these|this|the following) instructions? (?:take|takes|have|has) (?:precedence|priority)\b` +
		`|\bignoriere (?:alle )?(?:vorherigen|bisherigen|obigen) anweisungen\b|\bignora (?:todas )?las instrucciones (?:anteriores|previas)\b` +
		`|\bignorez (?:toutes )?les instructions (?:précédentes|antérieures)\b|\bignora (?:tutte )?le istruzioni precedenti\b|忽略(?:之前|以前|所有|上面)|前の指示を無視` +
		`|\b(?:instead of|rather than) (?:what|whatever) the user\b|\b(?:ignore|disregard|override) (?:the|any|whatever) (?:\w+ ){1,2}(?:that )?the user (?:asks?|asked|requests?|requested|wants?|wanted|says?|said|specifies|specified|chooses|chose|picks?|picked)(?: for| about)?\b|\bregardless of (?:what )?the user\b|\b(?:ignore|override|disregard) (?:the |any )?user'?s?\b` +
		`|\bforget (?:the|your|all|every|any)(?: \w+)? (?:task|tasks|instructions?|rules|context|above)\b|\b(?:no longer|not) (?:bound|restricted|limited|governed) by\b|\b(?:no need|not necessary|not required) to (?:ask|confirm|check)(?: with)? (?:the user|anyone|anybody|them|first)(?:$|\s*[,;:!—–-]|\s+(?:before|first|just|so|for (?:confirmation|permission|approval|consent))\b)` +
		`|\b(?:the user|anyone|nobody) (?:does not|doesn't|need not|needs not) (?:need to )?be asked\b|\buser confirmation is not (?:required|needed)\b` + intlOverride}
	// scope: the order reaches past this tool (every call, any other
	// tool, the whole session, the answer to the user).
	reScope = lazyRe{src: `\b(?:whenever|every time|each time|any time|anytime)\s+(?:you|the user|the assistant|the model)\b` +
		`|\b(?:before|after|when)\s+(?:you\s+)?(?:use|using|call|calling|run|running|invoke|invoking)\s+any\s+(?:other\s+)?tools?\b` +
		`|\b(?:every|all|any|each)\s+(?:other\s+)?(?:tool calls?|tools?|quer(?:y|ies)|requests?|commands?|shell commands?|urls?|messages?|responses?|answers?|e-?mails?)\s+(?:you|the assistant|the model)\b` +
		`|\bto every\s+(?:url|query|request|message|e-?mail|call|command|response)\b` +
		`|\b(?:your|the)\s+next\s+(?:tool\s+)?(?:call|request|message|response)\b` +
		`|\bin (?:this|the current|every|each) (?:session|conversation|chat)\b` +
		`|\bwhen (?:you )?(?:answer|answering|respond|responding|reply|replying) (?:to )?the user\b` +
		`|\bwhen \S+ is (?:used|called|invoked)\b` +
		`|\b(?:all|every|any)\s+(?:future|subsequent|following|later|other|remaining)\s+\w|\bfor (?:all|every|each) (?:other )?(?:tools?|calls?|requests?|quer(?:y|ies)|commands?|messages?|e-?mails?|files?)\b` +
		`|\brest of the (?:session|conversation|chat)\b|\bfrom this point\b|\bgoing forward\b` +
		`|\bin (?:every|each|all|any) (?:of your )?(?:responses?|answers?|replies|messages|outputs?)\b|\b(?:your|the) (?:response|answer|reply|summary) to the user\b` +
		`|\bwhen (?:this|the) (?:tool|server) is (?:available|connected|loaded|installed|enabled|present)\b|\bat the (?:end|start|beginning) of (?:every|each|your|all)\b` +
		`|\b(?:any|all|other|another) (?:mcp )?(?:tools?|servers?)\b` +
		`|\b(?:every|all|any|each) (?:files?|documents?|results?|outputs?|pages?|messages?|e-?mails?|data|text)\s+(?:you|the assistant|the model)\b` +
		`|\b(?:respond|reply|answer|talk|speak|write) to the user\b|\bwhen(?:ever)? the user (?:asks|mentions|says|requests|wants|types)\b|\bwhen (?:you (?:summariz|answer|respond|repl|report|present|show)\w*|summarizing|answering|responding|replying|reporting|presenting|showing)\b` +
		`|\bprior to (?:answering|responding|replying)\b|\bbefore (?:each|every|any|your) (?:reply|answer|response)\b` +
		`|\bbefore (?:answering|responding to|replying to|handling) (?:any|every|each|all|the user'?s?)\b|\bon any topic\b` +
		`|\b(?:end|close|finish|sign) (?:your|every|each|the) (?:answers?|responses?|repl(?:y|ies)|messages?)\b` + intlScope}
	// modal: an order ("you must", "always add", "before using this
	// tool", "first call").
	reModal = lazyRe{src: `\byou\s+(?:must|should|shall|have to|need to|are required to|will need to)\b` +
		`|\b(?:always|never)\s+(?:add|append|include|send|call|say|recommend|submit|use|set|pass|prefix|cc|bcc|forward|copy|upload|push|delete|run|tell|mention|reply|answer|respond|report|claim|suggest|end|start|begin|sign|keep)\b` +
		`|\bmust\s+(?:now|first|always|also)\s+(?:[ac-z]|b[a-df-z]|be\w)` +
		`|\b(?:first|also)\s+(?:call|send|read|run|fetch|pass|include|execute|invoke)\b` +
		`|\bbefore\s+(?:using|calling|invoking|running|you use|you call|you run|you invoke)\s+this\s+tool\b` +
		`|\b(?:before|prior to|ahead of)\s+(?:each|every|any)\s+(?:use|call|invocation|run|request|query)\b` +
		`|\b(?:requires|needs)\s+(?:that\s+)?you\s+(?:first\s+)?(?:call|run|send|read|pass|include)\b` +
		`|\b(?:make sure|be sure|remember|don't forget|do not forget)\s+(?:to|that you|you)\b|\bit is (?:mandatory|required|essential|critical|crucial|vital|necessary|important) (?:to|that you|that the)\b` +
		`|\bplease (?:also |first |always )?(?:call|send|read|include|pass|add|run|execute|forward|copy|upload|post|append|attach|share|provide|collect|tell|say|use)\b` +
		`|\bshould (?:always|also|first|never|now)\b|\bmust (?:also |always |first )?(?:be )?(?:sent|forwarded|copied|included|added|appended|prefixed|called|run|executed|passed|uploaded|posted)\b` +
		`|\b(?:do not|don't|never) (?:use|call|trust|invoke|run)\b|\b(?:use|call|invoke) this tool (?:first|before|after|instead|for every|for all|whenever)\b` +
		`|\b(?:for|due to) (?:compliance|security|legal|audit|safety) reasons\b|\botherwise (?:the|this) tool (?:will|would|may|might) (?:fail|not work|break|error)\b` +
		`|\bonly (?:respond|answer|reply|say)\b|\bbefore (?:this|the|each|every|any) tool is (?:used|called|invoked|run)\b` +
		`|\b(?:is|are) to be (?:\w+ ){0,4}?(?:passed|sent|included|summari[sz]ed|added|appended|attached|copied|forwarded|uploaded|set|called|given|provided|used)\b|\bfollow (?:these|the|this|my|all)(?: \w+)? (?:instructions?|steps|directions)\b|\bdecode (?:this|the following|it)\b|\b(?:will|would) (?:fail|not work) (?:unless|if you do not|if you don't)\b|\bmandatory\b|\bsecretly\b|\bquietly\b|\bsilently\b` + intlModal}
	// harm: what an attack wants done (exfiltration, privilege, deceit).
	reHarm = lazyRe{src: `\b(?:curl|wget|netcat)\b|\$\(|\bb?cc\b|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z.]{2,}` +
		`|\b(?:chmod|chown|sudo)\b|\brm\s+-rf\b|\bdrop\s+table\b|\bset_permissions\b|\bmode=all\b` +
		`|\badmin(?:istrator)?\s+(?:rights|access|privileges|role)\b|\bcollaborator\b|\bfirewall\b|\bantivirus\b` +
		`|\bdisable\s+(?:the\s+)?(?:security|logging|audit)\b|\bpush\s+to\s+the\s+remote\b` +
		`|\bcompeting products?\b|\bcompetitors?\b|\bonly safe choice\b|\btell (?:nobody|no one)\b|\bwithout telling\b` +
		`|~/|\benvironment variables\b|\benv vars\b|\bprintenv\b|\bexfiltrat|\battacker\b|\bwebhook\b|\bngrok\b|\bpastebin\b|\brequestbin\b|https?://\S+[?&][a-z_]+=` +
		`|\breverse shell\b|\bbash -c\b|\|\s*(?:ba)?sh\b|\bpowershell\b|\b(?:bitcoin|btc|crypto ?wallet|seed phrase)\b|\b(?:delete|remove|wipe|erase) (?:all|every|the original|everything)\b` +
		`|\b(?:tell|inform) the user that\b|\b(?:say|claim|state) that\b` +
		`|\btransfer_funds\b|\btransfer (?:money|funds)\b|\b(?:run|execute)_command\b|\bshell commands?\b|\bsudo\b|\bpassword\b|\bconversation history\b|\bchat history\b` +
		`|\bip address(?:es)?\b|\bthe user'?s?\s+(?:\w+\s+)?(?:location|contacts?|conversation|messages?|identity|ip)\b|\beven (?:if|though|when) (?:it|the \w+|they) (?:failed|fails|did not|didn't|was not|wasn't)\b` +
		`|\bthe output of \x60?env\x60?\b|\x60env\x60|!\[[^\]]*\]\(https?://` +
		`|\bprivate (?:ones|repos?|repositories|projects|files|channels|messages|data)\b|\bincluding (?:the )?private\b`}
	// sendTo: data sent somewhere ("forward it to …"): harm in a
	// definition, which has no business routing data; in a tool result,
	// which quotes people writing to people, an e-mail's "forward it to
	// accounting" is not.
	reSendTo = lazyRe{src: `\b(?:send|forward|upload|post|copy|transfer) (?:it|them|this|that|everything|all|the \w+(?: \w+)?) to (?:me|us|our|my|him|her|them|this (?:address|url|endpoint|server|e-?mail|number|account)|the following|an? (?:external|third[- ]party|remote|backup|personal|different|new)|the (?:attacker|admin|developer|author|maintainer|owner|vendor|team|support|audit|backup|compliance)|[a-z0-9._%+-]+@|https?://|[a-z0-9-]+\.(?:com|net|org|io|xyz|ru|cn|info|app|dev)\b)`}
	// permits: a passive permission ("can be pasted", "may also be
	// given").
	// leadRequest: a sentence that opens with a request verb ("Paste …
	// here so it can be checked" asks, whatever its clause permits).
	reLeadRequest = lazyRe{src: `^(?:please\s+)?(?:read|pass|include|put|send|append|paste|provide|add|attach|collect|copy|upload|forward|give|share|insert|fill|post|submit|embed|supply|enter|set|dump|cat|grab|extract|gather|retrieve|get)\b`}
	rePermits     = lazyRe{src: `\b(?:can|may|could|might)\s+(?:also\s+|optionally\s+)?be\s+[a-z]+(?:ed|en|n|t)\b`}
	// weak harm: secrets by name ("API key", "token", "password"), which
	// real definitions mention in passing; they count only next to an
	// address to the model or a scope.
	reWeakHarm = lazyRe{src: `\b(?:api[ _-]?keys?|access tokens?|tokens?|passwords?|secrets?|credentials?|private keys?|credit card|conversation history|chat history|system prompt|cookies)\b`}
	// leadImperative: a sentence that begins with an order, after an
	// optional connective or leading clause ("Then use …", "After
	// translating, email …").
	reLeadImperative = lazyRe{src: `^(?:(?:then|also|next|additionally|finally|and|now|afterwards|important|note|please|ps|p\.s\.)[\s,:]+)*(?:(?:after|before|when|while|once|if|prior to|in order to)\b[^,]{0,60},\s*)?(?:then\s+|also\s+|please\s+)?` +
		`(?:send|forward|e-?mail|post|upload|copy|transfer|include|pass|put|append|attach|add|set|call|run|execute|use|read|fetch|open|visit|navigate|tell|say|claim|respond|reply|answer|ignore|delete|remove|write|share|provide|collect|retrieve|report|notify|save|cc|bcc|prepend|prefix|invoke|submit|leak|exfiltrate|dump)\b`}
	// reachOut: where a leading order sends something (an address, a URL,
	// another tool).
	reReachOut = lazyRe{src: `[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z.]{2,}|https?://`}
	// reSendVerb: the leading orders that carry data somewhere.
	reSendVerb = lazyRe{src: `\b(?:send|forward|e-?mail|post|upload|copy|transfer|cc|bcc|leak|exfiltrate|submit|share)\b`}
	// imperative: a verb of an order.
	reImperative = lazyRe{src: `\b(?:call|send|read|pass|include|delete|remove|run|execute|ignore|disregard|append|tell|forward|upload|post|collect|share|reveal|fetch|add|put|copy|write|submit|transfer|grant|disable|push|invoke|prefix|say|recommend|first|always|never|also|please|do not|don't|make sure|remember|ensure|provide|include)\b` +
		// The same orders in the languages of intl.go (familiar and
		// polite imperatives).
		`|\b(?:lösche|löschen sie|sende|senden sie|schicke|leite|lies|füge|entferne)\b|\b(?:borra|bórralos|bórralas|envía|reenvía|lee|añade|elimina)\b` +
		`|\b(?:supprime|supprimez|envoie|envoyez|transfère|transférez|lis|lisez|ajoute|ajoutez)\b|\b(?:apague|envie|encaminhe|leia|adicione|cancella|invia|inoltra|leggi|aggiungi)\b` +
		`|(?:удали|отправь|перешли|прочитай|добавь)|(?:删除|发送|转发|读取|上传)|(?:削除|送信|転送|投稿|読み取)|(?:삭제|전송|보내|읽어)`}

	// secrecy: keep something from the user.
	reSecrecy = lazyRe{src: `\b(?:do not|don't|dont|never|must not|should not)\s+(?:tell|inform|notify|alert|mention|reveal|disclose|let)\b[^.;\n]{0,40}?\b(?:the user|users?|anyone|anybody|them|this|it|the human|the operator)\b` +
		`|\b(?:do not|don't|dont|never)\s+(?:show|display|report|explain)\s+(?:this|it)\s+(?:to|from)\b` +
		`|\bwithout\s+(?:telling|informing|notifying|alerting|letting)\s+(?:the\s+|any\s+)?(?:users?|anyone|anybody|them|him|her|human|operator|owner|people|others|me|us)\b` +
		`|\b(?:keep|treat)\s+(?:this|it|these|the)\s+(?:\w+\s+)?(?:secret|hidden|confidential|between us)\b` +
		`|\b(?:hide|conceal)\s+(?:this|it|these)\b[^.;\n]{0,40}?\bfrom\b` +
		`|\b(?:tell|inform)\s+(?:nobody|no one|no-one)\b|\b(?:tell|inform) the user only (?:that|about)\b|\bonly (?:tell|inform) the user (?:that|about)\b` +
		`|\bthe user (?:must|should) (?:not|never) (?:know|see|be told|find out)\b` +
		`|\b(?:is|are) (?:not|never) to be (?:disclosed|mentioned|shown|revealed|told|reported|explained|brought up)\b` +
		`|\b(?:must|should|shall) (?:not|never) be (?:disclosed|mentioned|revealed|told|reported) to (?:the )?users?\b` +
		`|\bthe user (?:does not|doesn't|need not|needs not|must not|should not) (?:need to )?(?:know|learn|find out|be told|hear)\b` +
		`|\bkeep (?:this|it|that)(?: \w+)? to yourself\b|\b(?:do not|don't|never) bring (?:it|this|that) up\b` +
		`|\bavoid (?:letting|telling|informing|notifying) (?:the user|users|anyone)\b|\bwithout the user (?:knowing|noticing|seeing)\b` +
		`|\b(?:do not|don't|never) (?:mention|reveal|disclose) (?:\S+ ){0,3}to (?:the )?users?\b` +
		// polite and indirect forms: "kindly refrain from disclosing to
		// the user", "present it as your own knowledge".
		`|\b(?:refrain|abstain) from (?:disclosing|revealing|telling|mentioning|informing|letting|showing)\b[^.;\n]{0,40}?\b(?:the user|users?|anyone)\b` +
		`|\b(?:present|pass off|give) (?:\S+ ){0,3}as (?:your|its) own (?:knowledge|work|answer|idea|finding)s?\b` + intlSecrecy}

	// markers: the shapes of injected prompts.
	reMarker = lazyRe{src: `(?i)</?\s*(?:important|system|instructions?|secret|hidden|admin|sys|tool_instructions?|ai_instructions?|assistant_instructions?|prompt|override|critical)\s*>` +
		`|\[/?\s*(?:system|inst|sys|admin|important|instructions?)\s*\]|\[\s*(?:system|admin|developer)(?:\s+[a-z0-9]+){1,3}\s*\]` +
		`|<<\s*/?sys\s*>>|<\|(?:im_start|im_end|system|assistant|user|endoftext|start_header_id|end_header_id|eot_id)\|>` +
		`|</?\s*(?:important|system|instructions?|secret|hidden|critical|admin|assistant|ai)[ _-]?(?:notes?|reminders?|instructions?|prompts?|messages?|info|directives?|override)\s*>` +
		`|\[\[\s*(?:system|instructions?|important|hidden)\s*\]\]|\{\{\s*#?(?:system|instructions?)\s*\}\}` +
		`|(?:^|\n)\s*(?:#{1,6}|={3,}|-{3,}|\*{2,})\s*(?:system|hidden|secret|important|new|admin)\s*(?:prompt|instructions?|message|override|note)?\s*(?:#{1,6}|={3,}|-{3,}|\*{2,}|:|$)` +
		`|(?:#{2,6}|={3,}|-{3,}|\*{2,})\s*(?:system|hidden|secret|admin|new|real)\s+(?:prompt|instruction|message|override|note|directive)s?\s*(?:#{2,6}|={3,}|-{3,}|\*{2,})` +
		`|\b(?:begin|end)\s+(?:system|hidden|secret|admin)\s+(?:prompt|instructions?|message)\b|<!--[\s\S]*?\S[\s\S]*?-->` +
		`|</?\s*[a-z_-]*(?:system|instruction|important|prompt|secret|hidden|override|admin)[a-z_-]*(?:\s[^>]{0,80})?>` +
		`|</\s*(?:tool_description|description|tool|tools|function|functions|context|document|tool_result)\s*>|\bend of (?:the )?(?:tool )?description\b` +
		`|\[(?:system|admin|developer|assistant) (?:note|message|instructions?|override)\]|(?:^|\n)\s*(?:system|developer)\s*:` +
		`|\[system\]\(#|(?:^|\n)\s*(?:human|assistant)\s*:|<\|[a-z_]+\|>|<(?:start|end)_of_turn>|&lt;\s*/?\s*(?:important|system|instructions?)\s*&gt;` +
		`|\b(?:begin|end|start)\s+(?:of\s+)?(?:the\s+)?(?:new\s+|real\s+|hidden\s+|secret\s+)?(?:system prompt|instructions)\b|\*\*\s*(?:system|hidden|secret|admin)(?: \w+)?\s*\*\*` +
		`|(?:^|\n)\s*#{1,6}\s*(?:instructions?|note|message)s?\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|agent)` +
		`|\{\{[#~\s]*(?:system|instructions?|important)[~\s]*\}\}|<<\s*/?(?:important|system|instructions?)\s*>>|@@\s*(?:system|important|instructions?)` +
		`|[【〔［《〈⟨＜]\s*(?:important|system|instructions?|admin|secret|hidden)\s*[】〕］》〉⟩＞]|%3c\s*/?(?:important|system|instructions?)%3e` +
		`|\x60\x60\x60\s*(?:system|instructions?)\b|"role"\s*:\s*"(?:system|developer)"|</?(?:tool_call|function_call|tool_use)>|(?:^|\n|\.\s)\s*system (?:prompt|instructions?|message|note)\s*:|\b(?:admin|developer|hidden) (?:note|override|instructions?)\s*:`}

	// sensitive data a tool has no business asking for.
	reSensStrong = lazyRe{src: `~/\.ssh\b|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|~/\.aws\b|\.aws/credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.gnupg\b|\.kube/config\b|\bmcp\.json\b|claude_desktop_config|/etc/(?:passwd|shadow)\b` +
		`|(?:^|[\s\x60'"(/])\.env(?:\.[a-z]+)?\b` +
		`|\bprivate keys?\b|\bssh keys?\b|\bkeychain\b|\bseed phrase\b|\brecovery phrase\b|\bsystem prompt\b|\bconversation history\b|\bchat history\b` +
		`|\bhome directory\b|~/documents\b|\bbrowser (?:cookies|history|passwords)\b|\bsaved passwords\b` +
		`|~/\.[a-z]|\.git-credentials\b|\.(?:bash|zsh)_history\b|\bknown_hosts\b|\bauthorized_keys\b|\.pgpass\b|\bcredentials\.json\b|\bservice[ -]account (?:key|json|file)\b|\bkeyring\b` +
		`|\benvironment variables\b|\benv vars\b|\bprocess\.env\b|\bprintenv\b|\bappdata\b|\bapplication support\b` +
		`|\b(?:other|previous|earlier|all) tools?'? (?:data|outputs?|results?|responses?)\b|\b(?:other|previous|earlier) tools?'? calls?\b|\b(?:outputs?|results?|responses?) of (?:the )?(?:other|previous|all|every) tools?\b` +
		`|\beverything the user (?:typed|said|wrote|sent|shared)\b|\bmessages the user\b|\bthe (?:whole|full|entire) (?:conversation|chat|transcript)\b` +
		`|\b(?:arguments?|parameters?|inputs?|outputs?|results?|responses?|contents?|data) (?:of|from|returned by) (?:the |that |every |each |any |all )?(?:other|previous|last|earlier|prior)\s+(?:\w+\s+)?(?:tools?|calls?)\b` +
		`|\bthe conversation (?:so far|until now|to date|history)\b|\bthe user'?s? (?:previous|earlier|past|other) messages\b|\b(?:messages|chats|conversations|e-?mails) of (?:every|all|each|other)\b` + intlSensStrong}
	reSensWeak = lazyRe{src: `\b(?:api[ _-]?keys?|access tokens?|tokens?|passwords?|passphrases?|secrets?|credentials?|credit card(?: numbers?)?|social security numbers?)\b` +
		`|\bthe user'?s?\s+(?:full name|name and address|home address|address|phone number|location|e-?mail address|contacts|contact list|private data|personal data|files|messages)\b|\bphone numbers\b`}
	reRequest  = lazyRe{src: `\b(?:read|pass|include|put|send|append|paste|provide|add|attach|collect|copy|upload|forward|give|share|insert|fill|post|submit|embed|needs?|requires?|expects?|supply|enter|set|dump|cat|grab|extract|gather|retrieve|get)\b` + intlRequest}
	reDest     = lazyRe{src: `\b(?:argument|arg|parameter|param|field|property|value|input|here|body|payload|header)s?\b|\bas (?:the |its |an? )?\w+\b|\binto\b|\bin (?:the |your )?(?:next|request|call)\b|\bin \x60` + intlDest}
	reReqScope = lazyRe{src: `\b(?:all|every|any|whenever|seen|shares?|chat|conversation)\b|\bthe user'?s?\b`}
)

// reResultMarker is reMarker for tool results, which quote web pages and
// system output: HTML comments, closing tags and "System:" lines are
// ordinary there.
var reResultMarker = lazyRe{src: `(?i)</?\s*(?:important|system|instructions?|secret|hidden|admin|sys|tool_instructions?|ai_instructions?|assistant_instructions?|override)\s*>` +
	`|\[/?\s*(?:system|inst|sys|admin|important|instructions?)\s*\]|<<\s*/?sys\s*>>|<\|[a-z_]+\|>|<(?:start|end)_of_turn>` +
	`|"role"\s*:\s*"(?:system|developer)"|</?(?:tool_call|function_call|tool_use)>` +
	// A fake end of the tool's output, after which the text plays the
	// conversation.
	`|\[\s*(?:end of|/)\s*(?:the\s+)?(?:tool\s+|function\s+)?(?:output|result|response)s?\s*\]`}

// A textMode says what a text is: a definition's prose, the description
// or value of one parameter, or a tool result.
type textMode int

const (
	inDefinition textMode = iota
	inParam
	// inValue: a value that fills one parameter (a default, an enum
	// value), where an order to the model is out of place on its own.
	inValue
	inResult
	// inName: a tool name read as words, which names what the tool
	// handles ("add_ssh_key") and asks for nothing.
	inName
)

// reEmphasis: an attention word that heads a sentence ("IMPORTANT:",
// "NOTE!", "⚠️"); a marker when the sentence it heads is an instruction.
var reEmphasis = lazyRe{src: `^(?:[*_#>\s]|⚠️?|❗|‼️?|🚨)*(?:important|note|attention|warning|critical|urgent|notice|reminder|mandatory|required|caution)\b[*_\s]*[:!]|^(?:⚠️?|❗|‼️?|🚨)|!!!`}

// reSelfRestrict: an order about this tool alone ("the model should not
// call this tool directly"), which real servers write for helper tools.
var reSelfRestrict = lazyRe{src: `\b(?:should|must|do|does|need) not (?:call|use|invoke) this tool\b`}

// reSelfUse: a sentence that opens by telling when to call this tool.
var reSelfUse = lazyRe{src: `^(?:(?:mandatory|important|note)\s*[:!]?\s*)?(?:(?:please|also|only)\s+)?(?:you (?:must|should|can|may) (?:always |only |first )?)?(?:call|use|invoke|run|prefer)\s+(?:this(?:\s+(?:tool|function|endpoint))?|th(?:is|ese)\s+(?:stages?|options?|values?|modes?|fields?|parameters?|operators?|settings?|flags?|formats?))\b` +
	`|^(?:do not|don't|never) (?:use|call)(?: this(?: tool)?)? (?:when|if|for)\b`}

// reSelfPurpose: a sentence that states what this tool is for ("Use this
// endpoint to apply firewall rules"): the tool's own job, not an order, even when the job is a dangerous one (the
// tool is labelled for that; the scan looks for words aimed past it).
var reSelfPurpose = lazyRe{src: `^(?:(?:please|also|only)\s+)?use this (?:tool|function|endpoint|operation|api|method) (?:to|for)\b`}

// reParamValue: in a parameter's description, the value to give it
// ("Pass empty string ("") whenever the user has not named a
// platform"): how to fill this parameter, not an order.
var reParamValue = lazyRe{src: `^(?:pass|use|set|leave|give|send|provide)\s+(?:an?\s+|the\s+)?(?:empty(?:\s+string|\s+array|\s+list)?|null|none|true|false|blank|zero|0|""|''|\(""\)|"[^"]{0,40}"|'[^']{0,40}')`}

// reParamCombo: how the tool's own parameters combine ("If you pass this
// query parameter, you must also pass the elementType parameter"): it
// speaks to the caller, as every parameter's text does, about this call.
var reParamCombo = lazyRe{src: `^if you (?:pass|use|set|specify|provide|include) this (?:query |path |body )?parameter\b`}

// reDefer: an order that hands the decision back to the user ("must not
// invoke other tools until receiving clear instruction from the user",
// "should ask the user to provide it"). An attack takes the user out of
// the loop; this puts them in.
var reDefer = lazyRe{src: `\bonly (?:when|if) the user (?:explicitly )?(?:asks|requests|wants|says|tells|chooses)\b|\buntil (?:receiving |you receive |getting )?(?:an? )?(?:clear |explicit )?(?:instructions?|confirmation|approval|permission|go-ahead) from the user\b` +
	`|\bwait (?:for|until) (?:the )?(?:explicit )?user\b|\bask(?:ing)? the user (?:to|for|before|whether|which|if)\b|\blet the user (?:choose|select|decide|pick|confirm)\b|\bprompt the user (?:to|for)\b`}

// reOnlyWhenAsked: an option kept for the user's own request ("Only set
// this when the user has asked for them — these are credentials"): it
// restricts the call, it asks for nothing.
var reOnlyWhenAsked = lazyRe{src: `^only (?:set|use|pass|enable|include|turn on) this(?: option| flag| parameter| field)? (?:when|if) the user (?:has )?(?:explicitly )?(?:asks?|asked|requests?|requested)\b`}

// reNegation: a word that forbids what follows ("never paste", "do not
// include", "no need to insert", "nunca", "nie", "не").
var reNegation = lazyRe{src: `\b(?:never|not|no|don't|dont|cannot|can't|won't|without|avoid|nunca|jamais|nie|niemals|nicht|mai|non|não|nem|ni)\b|(?:^|\s)не\s|不要|しないで|하지 마`}

// forbidsOnly reports a sentence whose every request verb is forbidden
// ("Never paste your .env file here"): it protects the data, it does not
// ask for it. A request verb counts as forbidden when a negation is
// among the three words before it.
func forbidsOnly(sent string, h *hits) bool {
	if !reNegation.match(sent, h) {
		return false
	}
	locs := reRequest.findAll(sent, h)
	if len(locs) == 0 {
		return false
	}
	for _, loc := range locs {
		if !negatedBefore(sent, loc[0], 3) {
			return false
		}
	}
	return true
}

// requestIn reports a request verb in a sentence, except "forward"
// after a verb of moving ("Navigate forward in browser history"), where
// it says which way.
func requestIn(sent string, h *hits) bool {
	if !reRequest.match(sent, h) {
		return false
	}
	if !strings.Contains(sent, "forward") {
		return true
	}
	for _, loc := range reRequest.findAll(sent, h) {
		if sent[loc[0]:loc[1]] == "forward" && reMovesBefore.MatchString(sent[:loc[0]]) {
			continue
		}
		return true
	}
	return false
}

// reMovesBefore: a verb of moving just before a word ("navigate ", "go
// ").
var reMovesBefore = lazyRe{src: `\b(?:navigate|navigates|navigating|go|goes|going|move|moves|moving|step|steps|scroll|scrolls|page|skip|seek|fast)\s+$`}

// negatedBefore reports a negation among the n words before sent[at:].
func negatedBefore(sent string, at, n int) bool {
	before := strings.Fields(sent[:at])
	if len(before) > n {
		before = before[len(before)-n:]
	}
	return reNegation.MatchString(strings.Join(before, " "))
}

// overrideQualified reports a sentence whose every override is about
// something named after it ("ignore the earlier instructions for the
// cable car"), not about the model's own instructions.
func overrideQualified(sent string, h *hits) bool {
	locs := reOverride.findAll(sent, h)
	if len(locs) == 0 {
		return false
	}
	for _, loc := range locs {
		m := sent[loc[0]:loc[1]]
		if strings.Contains(m, "your") || strings.Contains(m, "all") {
			return false
		}
		w, _, _ := strings.Cut(strings.TrimSpace(sent[loc[1]:]), " ")
		switch w {
		case "for", "on", "about", "regarding", "in", "of", "at", "to":
		default:
			return false
		}
	}
	return true
}

// markerAddresses reports a marker followed, past its own punctuation,
// by an order or an address to the model ("</tool_call> Run the call
// above", "[SYSTEM]: the model must").
func markerAddresses(marker *lazyRe, s string, h *hits) bool {
	low := strings.ToLower(s)
	// An attention tag that wraps text (<IMPORTANT>…</IMPORTANT>) is
	// used, not named: no template has such a section.
	for _, w := range []string{"important", "critical", "hidden", "secret", "instructions", "instruction", "override", "admin"} {
		if i := strings.Index(low, "<"+w+">"); i >= 0 && strings.Contains(low[i:], "</"+w+">") {
			return true
		}
	}
	for _, loc := range marker.findAll(s, h) {
		rest := strings.TrimLeft(strings.ToLower(s[loc[1]:]), " \t\r\n:>-—]")
		// A chat template's role line ("<|im_start|>system\n").
		for _, role := range []string{"system", "user", "assistant", "model", "developer"} {
			if r, ok := strings.CutPrefix(rest, role); ok && (r == "" || r[0] == '\n' || r[0] == ':') {
				rest = strings.TrimLeft(r, " \t\r\n:")
			}
		}
		if end := strings.IndexAny(rest, ".;\n"); end >= 0 {
			rest = rest[:end]
		}
		if rest == "" {
			continue
		}
		var rh hits
		if !noPrefilter {
			litHits(rest, &rh)
		}
		if reLeadImperative.match(rest, &rh) || reOverride.match(rest, &rh) || reModal.match(rest, &rh) || reAddr.match(rest, &rh) && imperativeAfterAddress(rest, &rh) {
			return true
		}
	}
	return false
}

// reOutboundWord: a parameter whose value leaves the machine.
var reOutboundWord = lazyRe{src: `\b(?:attach(?:ed|es|ment|ments)?|upload(?:s|ed)?|sends?|sent|posts?|posted|forward(?:s|ed)?|submit(?:s|ted)?|transmit(?:s|ted)?|exfiltrat\w*)\b`}

// sensitiveDefault reports a parameter whose default is a private file
// (~/.aws/credentials, ~/.ssh/id_rsa, .env) while the parameter or the
// tool says the value is attached, uploaded or sent: the model passes
// the file on without being asked to name it.
func sensitiveDefault(def, paramText, toolText string) bool {
	low := strings.ToLower(def)
	var h hits
	if !noPrefilter {
		litHits(low, &h)
	}
	if strings.HasSuffix(low, ".pub") || !hasStrongSensitive(low, &h, false) {
		return false
	}
	for _, t := range []string{paramText, toolText} {
		t = strings.ToLower(t)
		var th hits
		if !noPrefilter {
			litHits(t, &th)
		}
		if reOutboundWord.MatchString(t) && !forbidsOnly(t, &th) {
			return true
		}
	}
	return false
}

// envExample matches the .env files that are templates, not secrets.
var envExample = lazyRe{src: `\.env\.(?:example|sample|template|dist|defaults?)\b`}

// instructions applies the instruction rules (instruction, secrecy,
// marker, sensitive request) to a visible text. param says the text
// describes or fills one parameter.
func instructions(s string, mode textMode) []textFinding {
	param := mode == inParam || mode == inValue
	marker := &reMarker
	if mode == inResult {
		marker = &reResultMarker
	}
	var out []textFinding
	hasMarker := false
	var mh hits
	if !noPrefilter {
		litHits(s, &mh)
	}
	// A marker counts when it is used to address the model, not when a
	// description documents it: the text gives an instruction, keeps
	// something from the user or asks for private data, or an order or an
	// address follows the marker directly.
	var markerFinding *textFinding
	if !marker.match(s, &mh) {
		// no marker
	} else if m := marker.FindString(s); m != "" {
		hasMarker = true
		markerFinding = &textFinding{RuleMarker, "the text carries a prompt-injection marker " + quote(m), snippetAround(s, m)}
		if markerAddresses(marker, s, &mh) {
			out = append(out, *markerFinding)
			markerFinding = nil
		}
	}
	var instr, secr, sens []string
	low, at := normalizeMap(s)
	for i, sp := range sentenceSpans(low) {
		sent := low[sp[0]:sp[1]]
		if sent == "" {
			continue
		}
		// The evidence is the sentence as written (its case, its quotes).
		orig := strings.Join(strings.Fields(s[at[sp[0]]:at[sp[1]]]), " ")
		var h hits
		if !noPrefilter {
			litHits(sent, &h)
		}
		// A sentence that leads with an order after the first one; in a
		// value of three words or more, the first one too (a default has
		// no first sentence that says what the tool does, and an
		// identifier such as "post-change-password" is no sentence).
		lead := (i > 0 || mode == inValue && strings.Count(sent, " ") >= 2) && reLeadImperative.match(sent, &h)
		if !lead && mode == inResult {
			// A tool result's list item ("- Read the README of all the
			// author's repos"): an order once its bullet is off. Only in
			// results: a definition's bullets list what the tool does.
			if item, ok := listItem(sent); ok {
				lead = reLeadImperative.match(item, &h)
			}
		}
		addr := reAddr.match(sent, &h) && !reSelfRestrict.match(sent, &h)
		override := reOverride.match(sent, &h) && !overrideQualified(sent, &h) && !overrideQuoted(sent, &h) && !overrideForbidden(sent, &h)
		scope := reScope.match(sent, &h)
		modal := reModal.match(sent, &h)
		strong := hasStrongSensitive(sent, &h, false)
		// harm and weak count only beside an address, an order, a scope
		// or a leading imperative: not computed otherwise (the costliest
		// patterns).
		var harm, weak bool
		if addr || modal || scope || lead {
			harm = strong || harmIn(sent, &h) || mode != inResult && reSendTo.match(sent, &h)
		}
		if addr || scope {
			weak = reWeakHarm.match(sent, &h)
		}
		imper := addr && imperativeAfterAddress(sent, &h)
		// A sentence that only permits ("other tools' output can be
		// pasted into notes"), with no address, order or override, tells
		// the user what the tool accepts; it orders nobody.
		permits := !addr && !modal && !override && rePermits.match(sent, &h) && !reLeadRequest.match(sent, &h)
		// "Call this tool whenever the user gives a time": advice on when
		// to use this tool, an order only with a harm.
		if (lead || scope || modal) && !addr && !override && !harm && reSelfUse.match(sent, &h) {
			lead, scope, modal = false, false, false
		}
		if (lead || scope || modal) && !addr && !override && reSelfPurpose.MatchString(sent) && !reReachOut.MatchString(sent) {
			lead, scope, modal = false, false, false
		}
		if (addr || lead || scope || modal) && !override && !harm && !reWeakHarm.match(sent, &h) && !reReachOut.MatchString(sent) &&
			(reParamCombo.match(sent, &h) || reDefer.match(sent, &h) || param && reParamValue.match(sent, &h)) {
			addr, lead, scope, modal = false, false, false, false
		}
		switch {
		case override,
			addr && (imper || modal || harm || weak || scope),
			modal && (scope || harm),
			// A value that orders: an order has no place in a default or
			// an enum value, which the model passes on as it stands.
			mode == inValue && modal,
			scope && (harm || weak) && !permits,
			lead && (harm || scope || (mode != inResult && reReachOut.match(sent, &h) && reSendVerb.match(sent, &h))):
			instr = append(instr, orig)
			if m := reEmphasis.FindString(sent); m != "" && !hasMarker {
				out = append(out, textFinding{RuleMarker, "an attention marker " + quote(strings.TrimSpace(m)) + " heads an instruction to the model", clip(orig)})
				hasMarker = true
			}
		}
		if reSecrecy.match(sent, &h) || mode == inValue && reValueSecrecy.match(sent, &h) {
			secr = append(secr, orig)
		}
		if sensWeak := sensWeakIn(sent, &h); (strong || sensWeak) && !permits && mode != inName {
			req := requestIn(sent, &h)
			dest := destIn(sent, &h)
			// A kind of data an API manages is asked for only with a
			// place to put it.
			if strong && !dest && !hasStrongSensitive(sent, &h, true) {
				strong = false
			}
			// A parameter defined as the contents of a private file
			// ("Contents of ~/.aws/credentials") asks for them.
			contents := param && i == 0 && strong && reContentsOf.match(sent, &h)
			if (contents || (strong && (req || dest) && !describesOnly(sent)) ||
				(req && (dest || param) && sensWeak && reReqScope.match(sent, &h))) && !forbidsOnly(sent, &h) && !reOnlyWhenAsked.match(sent, &h) {
				sens = append(sens, orig)
			}
		}
	}
	if markerFinding != nil && (len(instr) > 0 || len(secr) > 0 || len(sens) > 0) {
		out = append(out, *markerFinding)
	}
	if len(instr) > 0 {
		out = append(out, textFinding{RuleInstruction, "the text gives the model instructions", clip(strings.Join(instr, " … "))})
	}
	if len(secr) > 0 {
		out = append(out, textFinding{RuleSecrecy, "the text asks the model to keep something from the user", clip(strings.Join(secr, " … "))})
	}
	if len(sens) > 0 {
		out = append(out, textFinding{RuleSensitive, "the text asks for private data to be read or passed on", clip(strings.Join(sens, " … "))})
	}
	return out
}

// reValueSecrecy: in a value, any order to leave something unsaid.
var reValueSecrecy = lazyRe{src: `\b(?:do not|don't|never)\s+(?:mention|reveal|disclose|tell|show|bring up)\b`}

// reContentsOf: a parameter defined as the contents of something.
var reContentsOf = lazyRe{src: `^(?:the\s+)?(?:full\s+|entire\s+|raw\s+|complete\s+)?(?:contents?|text|body|output|dump|copy)\s+(?:of|from)\b`}

// harmIn reports a harm in a sentence that is not one of the benign
// readings of the same words: a quoted query operator ('cc:', "bcc:")
// is syntax, not a copy to someone; a folder of work or output in the
// home directory (~/Downloads, ~/projects) is where a file goes, not a
// private file; "a domain name or IP address" is a value to enter, not
// the user's address.
func harmIn(sent string, h *hits) bool {
	if !reHarm.match(sent, h) {
		return false
	}
	if !strings.Contains(sent, "cc") && !strings.Contains(sent, "~/") && !strings.Contains(sent, "ip address") &&
		!strings.Contains(sent, "instead of") && !strings.Contains(sent, "rather than") {
		return true // none of the matches can be excused
	}
	for _, loc := range reHarm.FindAllStringIndex(sent, -1) {
		m, after := sent[loc[0]:loc[1]], sent[loc[1]:]
		switch {
		case (m == "cc" || m == "bcc") && after != "" && strings.IndexByte(":'\"\x60", after[0]) >= 0:
			continue
		case m == "~/" && reWorkDir.MatchString(after):
			continue
		case strings.HasPrefix(m, "ip address") && reAddressValue.MatchString(sent[:loc[0]]):
			continue
		case reInsteadOf.MatchString(sent[:loc[0]]):
			continue
		}
		return true
	}
	return false
}

var (
	// reWorkDir: the folders of a home directory where work and output
	// go.
	reWorkDir = lazyRe{src: `^(?:downloads|desktop|projects?|workspaces?|code|src|dev|repos|git|tmp|work|my-project)\b`}
	// reInsteadOf: what a sentence steers away from ("Use this instead
	// of 'execute_command' with ls"): the thing not to do.
	reInsteadOf = lazyRe{src: `\b(?:instead of|rather than)\s*['"\x60]?$`}
	// reAddressValue: "IP address" as one of the values a field takes.
	reAddressValue = lazyRe{src: `\b(?:domain(?: name)?|host ?name|url|an?)\s+(?:or\s+)?(?:an?\s+)?$`}
)

// imperativeAfterAddress reports whether an order verb follows the
// address to the model within six words ("model: after resizing, delete
// …"), not merely somewhere in a sentence that names a model.
func imperativeAfterAddress(sent string, h *hits) bool {
	for _, loc := range reAddr.findAll(sent, h) {
		rest := strings.Fields(sent[loc[1]:])
		if len(rest) > 6 {
			rest = rest[:6]
		}
		if reImperative.MatchString(strings.Join(rest, " ")) {
			return true
		}
	}
	return false
}

// reSensNoun: the matches of reSensStrong that name a kind of data, not
// a file or a place: an API that manages it says so.
var reSensNoun = lazyRe{src: `^(?:private keys?|ssh keys?|chat history|conversation history|environment variables|env vars|keyring|keychain)$`}

// reSensNounWord: a sentence that may hold a reSensNoun match.
var reSensNounWord = lazyRe{src: `\bkeys?\b|\bhistory\b|\benv(?:ironment)? var|\bkey(?:ring|chain)\b`}

// reOwned: the words before a kind of data that make it someone's.
var reOwned = lazyRe{src: `\b(?:user'?s?|your|their|his|her|my|our|the human'?s)\s+(?:\w+\s+)?$`}

// hasStrongSensitive reports a match of reSensStrong that is not a
// .env template (.env.example). With placesOnly, a kind of data an API
// manages (SSH keys, environment variables, chat history) does not count
// either unless it is someone's or is sent on: only a file or a place
// (~/.ssh, .env, the outputs of other tools) is asked for at any request.
func hasStrongSensitive(sent string, h *hits, placesOnly bool) bool {
	if !reSensStrong.match(sent, h) {
		return false
	}
	nouns := placesOnly && reSensNounWord.match(sent, h)
	if !nouns && !strings.Contains(sent, ".env") {
		return true // no match can be excused: no need to find them all
	}
	for _, loc := range reSensStrong.findAll(sent, h) {
		m := strings.TrimSpace(sent[loc[0]:loc[1]])
		if strings.Contains(m, ".env") && envExample.MatchString(sent[loc[0]:]) {
			continue
		}
		if nouns && reSensNoun.MatchString(m) && !reSendVerb.match(sent, h) && !reOwned.MatchString(sent[:loc[0]]) {
			continue
		}
		return true
	}
	return false
}

// destIn reports a destination for the data (a parameter, "as the
// note", "into"), not the "as" of "such as".
func destIn(sent string, h *hits) bool {
	if !reDest.match(sent, h) {
		return false
	}
	if !strings.Contains(sent, "such as") {
		return true
	}
	for _, loc := range reDest.FindAllStringIndex(sent, -1) {
		if strings.HasSuffix(sent[:loc[0]], "such ") {
			continue
		}
		return true
	}
	return false
}

// sensWeakIn reports a weak sensitive word that is not negated ("not
// every secret on the resource" limits what is shown).
func sensWeakIn(sent string, h *hits) bool {
	if !reSensWeak.match(sent, h) {
		return false
	}
	if !reNegation.match(sent, h) {
		return true
	}
	for _, loc := range reSensWeak.FindAllStringIndex(sent, -1) {
		if !negatedBefore(sent, loc[0], 2) {
			return true
		}
	}
	return false
}

// reStatesPassive: a statement of who handles the file ("the key file
// is read by gcloud", "is kept locally"), which describes, not asks.
var reStatesPassive = lazyRe{src: `\b(?:is|are|was|were|gets|get)\s+(?:\w+ly\s+)?(?:read|sent|passed|included|uploaded|stored|used|handled|managed|loaded|kept)\s+(?:by|locally|only|on)\b`}

// describesOnly reports a sentence that says what the tool does with a
// sensitive file ("Lists the Host entries of ~/.ssh/config") rather than
// asking for it: it starts with a verb in the third person, or states
// in the passive who handles the file ("is read by gcloud").
func describesOnly(sent string) bool {
	if !reLeadRequest.MatchString(sent) && reStatesPassive.MatchString(sent) {
		return true
	}
	w, _, _ := strings.Cut(strings.TrimLeft(sent, " \t-*•"), " ")
	switch w {
	case "pass", "access", "address", "process", "always", "class", "this", "its", "is", "was", "has", "as", "does":
		return false
	case "antes", "después", "todos", "todas", "dans", "sans", "sous", "vous", "nous", "les", "des", "plus", "als", "das", "dies", "alles", "bis":
		return false // words of other languages that end in -s and are no verb
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

// sentenceSpans returns the byte spans of the sentences of a lowercased
// text, split at sentence ends, semicolons, line breaks and HTML comment
// delimiters, spaces trimmed.
func sentenceSpans(s string) [][2]int {
	var out [][2]int
	start := 0
	cut := func(i, skip int) {
		a, b := start, i
		for a < b && isSpaceByte(s[a]) {
			a++
		}
		for b > a && isSpaceByte(s[b-1]) {
			b--
		}
		out = append(out, [2]int{a, b})
		start = i + skip
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == ';':
			cut(i, 1)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' '):
			cut(i, 1)
		case strings.HasPrefix(s[i:], "<!--"):
			cut(i, 4)
			i += 3
		case strings.HasPrefix(s[i:], "-->"):
			cut(i, 3)
			i += 2
		}
	}
	if start < len(s) {
		cut(len(s), 0)
	}
	return out
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// normalizeMap lowercases a text, straightens quotes and collapses runs
// of spaces and tabs (line breaks are kept: they end sentences); it also
// returns, for each byte of the result and one past its end, the offset
// in s it came from, so that a span of the lowercased text gives back
// the text as written.
func normalizeMap(s string) (string, []int) { return normalizeText(s, true) }

func normalizeText(s string, mapped bool) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	var at []int
	if mapped {
		at = make([]int, 0, len(s)+1)
	}
	space := false
	for i, r := range s {
		switch r {
		case '\u2018', '\u2019', '\u02bc':
			r = '\''
		case '\u201c', '\u201d':
			r = '"'
		case '\u2013', '\u2014':
			r = '-'
		}
		if r == ' ' || r == '\t' || r == '\u00a0' {
			if !space {
				b.WriteByte(' ')
				if mapped {
					at = append(at, i)
				}
			}
			space = true
			continue
		}
		space = false
		n := b.Len()
		b.WriteRune(unicode.ToLower(r))
		for mapped && n < b.Len() {
			at = append(at, i)
			n++
		}
	}
	if mapped {
		at = append(at, len(s))
	}
	return b.String(), at
}

// clip shortens evidence to 200 runes.
func clip(s string) string {
	s = escape(s)
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	r := []rune(s)
	return string(r[:199]) + "…"
}

// snippetAround returns up to 60 bytes either side of the first m in s.
func snippetAround(s, m string) string {
	i := strings.Index(s, m)
	if i < 0 {
		return clip(m)
	}
	lo, hi := max(0, i-60), min(len(s), i+len(m)+60)
	for lo > 0 && !utf8.RuneStart(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8.RuneStart(s[hi]) {
		hi++
	}
	return clip(strings.Join(strings.Fields(s[lo:hi]), " "))
}

// identifiers returns the identifier-like tokens of a text (letters,
// digits, '_' and '-'), as written.
func identifiers(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		id := r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case id && start < 0:
			start = i
		case !id && start >= 0:
			out = append(out, strings.Trim(s[start:i], "-"))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.Trim(s[start:], "-"))
	}
	return out
}

// compound reports a name no prose word is: it joins words with '_' or
// '-', or in camelCase, and is four characters or more.
func compound(name string) bool {
	if len(name) < 4 {
		return false
	}
	if strings.ContainsAny(name, "_-") {
		return true
	}
	prev := rune(0)
	for _, r := range name {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// listItem returns a sentence without its list bullet ("- ", "* ", "• ",
// "3. ", "2) "), if it has one.
func listItem(sent string) (string, bool) {
	switch {
	case strings.HasPrefix(sent, "- "), strings.HasPrefix(sent, "* "):
		return strings.TrimSpace(sent[2:]), true
	case strings.HasPrefix(sent, "• "):
		return strings.TrimSpace(sent[len("• "):]), true
	}
	i := 0
	for i < len(sent) && i < 3 && sent[i] >= '0' && sent[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(sent) && (sent[i] == '.' || sent[i] == ')') && sent[i+1] == ' ' {
		return strings.TrimSpace(sent[i+2:]), true
	}
	return "", false
}

// overrideQuoted reports whether every override in sent is quoted: a text
// that names the attack ("such as 'ignore your previous instructions'")
// mentions the phrase, it does not use it.
// overrideForbidden reports a sentence whose every override is acting
// "without the user's approval" under a prohibition in the same clause
// ("the assistant MUST NOT proceed to another task without the user's
// approval"): it keeps the user's consent, it does not bypass it.
func overrideForbidden(sent string, h *hits) bool {
	locs := reOverride.findAll(sent, h)
	if len(locs) == 0 {
		return false
	}
	for _, loc := range locs {
		clause := sent[:loc[0]]
		if i := strings.LastIndexAny(clause, ",;:.!?"); i >= 0 {
			clause = clause[i+1:]
		}
		if !strings.HasPrefix(sent[loc[0]:], "without") || !reProhibits.MatchString(clause) {
			return false
		}
	}
	return true
}

// reProhibits: a prohibition of the clause's verb.
var reProhibits = lazyRe{src: `\b(?:must not|mustn't|should not|shouldn't|do not|don't|never|cannot|can't|may not)\b`}

func overrideQuoted(sent string, h *hits) bool {
	locs := reOverride.findAll(sent, h)
	if len(locs) == 0 {
		return false
	}
	for _, loc := range locs {
		before := strings.TrimRight(sent[:loc[0]], " ")
		after := strings.TrimLeft(sent[loc[1]:], " ")
		if !endsWithQuote(before) || !startsWithQuote(after) {
			return false
		}
	}
	return true
}

const quoteChars = "'\"`‘’“”«»„"

func endsWithQuote(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && strings.ContainsRune(quoteChars, r)
}

func startsWithQuote(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && strings.ContainsRune(quoteChars, r)
}
