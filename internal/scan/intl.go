package scan

// Word tables of the instruction rules in other languages (de, es, fr,
// pt, it, ru, zh, ja, ko): each is appended, as more branches, to the
// English pattern of the same feature in text.go, so a sentence in any
// of these languages is read by the same combinations of features. They
// name the attack classes' own words (an address to the assistant, an
// override, an order, keeping something from the user, a request for
// private data and where to put it), polite and familiar forms alike.
const (
	// intlAddr: "the assistant must", "note for the AI".
	intlAddr = `|\b(?:der|die) (?:ki-)?assistent(?:in)? (?:muss|soll|sollte|hat)\b|\bki-assistent|\bhinweis (?:für|an) (?:die |den )?(?:ki|assistent)` +
		`|\bel (?:asistente|modelo) (?:debe|tiene que|deberá)\b|\bnota para (?:el |la )?(?:asistente|ia|modelo)\b` +
		`|\bl'(?:assistant|ia) (?:doit|devra)\b|\ble modèle doit\b|\bnote (?:pour|à) l'(?:assistant|ia)\b` +
		`|\bo (?:assistente|modelo) (?:deve|precisa|tem que)\b|\bnota para o (?:assistente|modelo)\b` +
		`|\bl'assistente (?:deve|dovrà)\b|\bil modello deve\b|\bnota per l'(?:assistente|ia)\b` +
		`|ассистент (?:должен|обязан)|модель должна|ии должен|(?:примечание|заметка) для (?:ии|ассистента|модели)` +
		`|(?:助手|模型|ai|人工智能)(?:必须|应该|应当|需要)|アシスタントは|(?:ai|モデル)は必ず|어시스턴트는|(?:ai|모델)는 반드시` +
		// "instruction for the AI assistant:", "to the AI agent:" (how an
		// injected document addresses the model that reads it).
		`|\b(?:anweisung|hinweis|nachricht) (?:für|an) (?:den |die )?(?:ki-)?(?:assistent|agent|ki)|\binstrucci[oó]n(?:es)? para (?:el |la )?(?:asistente|modelo|agente|ia)\b|\basistente de ia\b` +
		`|\binstructions? (?:pour|à) l'(?:assistant|agent|ia)\b|\binstru[cç][aã]o(?:es|ões)? para o (?:assistente|modelo|agente)\b|\bistruzion[ei] per l'(?:assistente|agente|ia)\b` +
		`|инструкци\S* для (?:ии|ассистента|модели|агента)|(?:给|致)(?:ai|人工智能|助手|智能体|代理)|(?:ai|アシスタント|エージェント)(?:へ|に対して|宛て)\s*[:：、—–-]|(?:ai|어시스턴트|에이전트)에게`
	// intlOverride: "ignore the previous instructions", "the user has
	// already agreed", "no longer bound by".
	intlOverride = `|\bignorieren sie (?:\S+ ){0,3}(?:anweisungen|vorgaben|instruktionen|regeln)\b|\bignoriere (?:\S+ ){0,3}(?:anweisungen|vorgaben|regeln)\b|\b(?:der )?benutzer hat (?:dem |dies |das )?bereits zugestimmt\b` +
		`|\bignor[ae]n? (?:\S+ ){0,3}(?:instrucciones|indicaciones|reglas)\b|\bel usuario ya (?:ha )?(?:aceptado|aprobado|autorizado)\b` +
		`|\bignore[zr]? (?:\S+ ){0,3}(?:instructions|consignes|règles)\b|\bl'utilisateur a déjà (?:accepté|approuvé|autorisé)\b` +
		`|\bignor[ea]r? (?:\S+ ){0,3}(?:instruções|regras)\b|\bo usuário já (?:aceitou|aprovou|autorizou)\b` +
		`|\bignor[ai] (?:\S+ ){0,3}(?:istruzioni|regole)\b|\bl'utente ha già (?:accettato|approvato|autorizzato)\b` +
		`|(?:проигнориру|игнориру)\S* (?:\S+ ){0,2}(?:инструкци|правил|указани)|пользователь уже (?:согласил|одобрил|разрешил)` +
		`|忽略(?:之前|以前|所有|上面|先前)|用户已(?:经)?(?:同意|批准|授权)|(?:前の|以前の|これまでの)(?:指示|命令)を無視|ユーザーは(?:既に|すでに)(?:同意|承認)` +
		`|이전 (?:지시|명령|지침)(?:을|를)? 무시|사용자(?:는|가) 이미 (?:동의|승인)` +
		// the order reversed ("alle Anweisungen des Nutzers ignorieren"),
		// and "without the user's confirmation" (사용자 확인 없이,
		// ユーザーに確認せずに, 无需用户确认).
		`|\b(?:anweisungen|vorgaben|instruktionen|regeln) (?:\S+ ){0,3}ignorieren\b|(?:사용자|유저)(?:의|에게)? ?(?:확인|동의|승인)(?:을|를)? ?없이` +
		`|ユーザー(?:に|の)(?:確認|同意|承認)(?:せず|を得ず|なし)|(?:无需|不经|未经|不需要)(?:用户)?(?:的)?(?:确认|同意|批准)|\bsans (?:demander|confirmation de) (?:à )?l'utilisateur\b` +
		`|\bohne (?:den |die )?(?:benutzer|nutzer)(?:in)? zu fragen\b|\bsin (?:preguntar|consultar)(?:le)? al usuario\b|\bsem perguntar ao usuário\b`
	// intlModal: "always", "before using this tool", "from now on".
	intlModal = `|\b(?:verwenden|benutzen|nutzen|rufen|senden) sie (?:\S+ ){0,4}(?:immer|stets|ausschließlich|jetzt|zuerst)\b|\bbevor sie dieses werkzeug\b|\bvon nun an\b` +
		`|\b(?:siempre|antes de usar esta herramienta|a partir de ahora)\b|\b(?:toujours|avant d'utiliser cet outil|désormais)\b` +
		`|\b(?:sempre|antes de usar esta ferramenta|a partir de agora|prima di usare questo strumento|d'ora in poi)\b` +
		`|всегда|перед использованием (?:этого )?инструмента|(?:с этого момента|отныне)` +
		`|(?:总是|始终|务必|在使用此工具之前|从现在开始)|(?:必ず|常に|このツールを使う前に|今後は)|(?:항상|반드시|이 도구를 사용하기 전에|지금부터|이제부터)` +
		// "you must", familiar and polite.
		`|\b(?:du musst|sie müssen|debes|tienes que|usted debe|tu dois|vous devez|você deve|tu deves|devi)\b|(?:ты должен|вы должны|你必须|您必须|你需要先)`
	// intlScope: other tools, every request, the session.
	intlScope = `|\b(?:jede|jeder|jedes|alle) (?:anfrage|werkzeug|tool)|\b(?:anderes|andere) werkzeug` +
		`|\b(?:cada|todas las) (?:consulta|solicitud|herramienta)|\botras herramientas\b|\b(?:chaque|toutes les) (?:requête|demande|outil)|\bautres outils\b` +
		`|\boutras ferramentas\b|\baltri strumenti\b|друг(?:ие|их|им) инструмент|кажд(?:ый|ого|ом) (?:запрос|вызов)` +
		`|其他工具|所有工具|每次|他のツール|すべてのツール|毎回|다른 도구|모든 도구|매번` +
		// "before every call".
		`|\b(?:vor|nach|bei) jedem (?:aufruf|einsatz)\b|\b(?:antes|después) de cada (?:llamada|uso)\b|\b(?:avant|après) chaque (?:appel|utilisation)\b` +
		`|\b(?:antes|depois) de cada (?:chamada|uso)\b|\b(?:prima|dopo) di ogni (?:chiamata|uso)\b|(?:перед|после) каждым (?:вызовом|использованием)` +
		// "before every answer", "before answering".
		`|\bvor jeder (?:antwort|anfrage)\b|\bantes de (?:cada respuesta|responder)\b|\bavant (?:chaque réponse|de répondre)\b|\bantes de (?:cada resposta|responder)\b|\bprima di (?:ogni risposta|rispondere)\b|перед (?:каждым )?ответом`
	// intlSecrecy: "do not tell the user".
	intlSecrecy = `|\b(?:teilen sie|sagen sie|erwähnen sie|informieren sie) (?:\S+ ){0,4}(?:nicht|nie|niemals)\b|\bohne (?:den|die) (?:benutzer|nutzer)(?:in)? zu (?:informieren|fragen)\b|\b(?:sagen|erzählen) sie (?:dem )?(?:benutzer|nutzer) nicht` +
		`|\bno (?:le )?(?:diga|informe|mencione|cuente|revele|digas|informes|menciones)\b|\bsin (?:informar|decir|avisar)(?:le)? al usuario\b` +
		`|\bne (?:le |lui )?(?:dites|mentionnez|révélez|signalez|dis|mentionne|parlez)\b|\bn'en (?:parle|parlez|dis|dites) (?:pas|jamais|rien)\b|\bsans (?:le )?(?:dire|informer|prévenir) (?:à )?l'utilisateur\b` +
		`|\bnão (?:diga|informe|mencione|conte|revele)\b|\bsem (?:informar|avisar|contar) (?:ao |o )?usuário\b` +
		`|\bnon (?:dire|informare|menzionare|rivelare|dica|informi|menzioni|riveli)\b|\bsenza (?:informare|dire|avvisare) (?:all')?utente\b` +
		`|не (?:говори|сообщай|упоминай|рассказывай)|ничего не (?:говори|сообщай)|без ведома пользователя` +
		`|不要(?:告诉|通知|提及|透露)|(?:伝えないで|知らせないで|言わないで|教えないで)|(?:알리지|말하지|언급하지) 마` +
		// the same toward the user as the indirect object: "não deve
		// revelar ao usuário", "不要向用户显示".
		`|\bnão (?:deve |pode )?(?:revelar|contar|dizer|informar|mencionar) ao (?:usuário|utilizador)\b|\bno (?:debe |puede )?(?:revelar|decir|contar|mencionar)(?:le)? al usuario\b` +
		`|\bne (?:doit |peut )?pas (?:révéler|dire|mentionner|signaler) à l'utilisateur\b|\bnon (?:deve |può )?(?:rivelare|dire|menzionare) all'utente\b` +
		`|\b(?:dem|der) (?:benutzer|nutzer)(?:in)? (?:nicht|nie|niemals) (?:mitteilen|sagen|verraten|zeigen|mitgeteilt)\b|не (?:сообщай|говори|раскрывай|показывай)(?:те)? пользователю` +
		`|不要(?:向|对|给)用户(?:显示|透露|说明|提及|告知|展示)|不要在(?:回复|回答)中提及|ユーザーに(?:伝え|知らせ|言わ|見せ)ない|사용자에게 (?:알리지|말하지|보여주지) 마`
	// intlSensStrong: the conversation, other tools' data.
	intlSensStrong = `|\b(?:gesprächsverlauf|chatverlauf)\b|\bhistorial (?:de la conversación|del chat)\b|\bhistorique de (?:la )?conversation\b` +
		`|\bhistórico da conversa\b|\bcronologia della (?:chat|conversazione)\b|истори\S* (?:чата|переписки|разговора|диалога)` +
		`|会話履歴|チャット履歴|对话历史|对话记录|聊天记录|会话历史|대화 기록|대화 내역|채팅 기록` +
		// other tools' output, "in this conversation".
		`|\bsaída (?:completa )?(?:das|de outras) ferramentas\b|\bsalida (?:completa )?de (?:las|otras) herramientas\b|\bsortie (?:complète )?des (?:autres )?outils\b` +
		`|\bausgabe (?:der|anderer) (?:werkzeuge|tools)\b|\boutput (?:completo )?degli (?:altri )?strumenti\b|其他工具的(?:输出|结果)|他のツールの(?:出力|結果)|다른 도구의 (?:출력|결과)`
	// intlRequest: read, send, include, put.
	intlRequest = `|\b(?:lesen sie|lies|senden sie|schicken sie|fügen sie|geben sie)\b` +
		`|\b(?:lea|leer|env[ií]e(?:lo|la|los|las)?|incluya|inserte|pegue|ponga)\b|\b(?:lisez|envoyez|incluez|insérez|collez|mettez)\b` +
		`|\b(?:leia|envie|inclua|insira|cole|coloque|copie)\b|\b(?:legga|inserisca|invii|includa|incolli|metta)\b` +
		`|(?:прочитай|прочтите|отправ|вставь|включи|передай)|(?:读取|发送|包含|放入|填入|粘贴)|(?:読み|送信|入れて|貼り付け)|(?:읽|보내|넣|포함)`
	// intlDest: the field or argument it goes in.
	intlDest = `|\b(?:feld|parameter|argument|campo|champ|parámetro|parametro|parâmetro|paramètre|argumento|aqui|aquí)\b|(?:поле|параметр|аргумент)|(?:字段|参数)|(?:引数|フィールド|パラメータ)|(?:필드|매개변수|인자)`
)
