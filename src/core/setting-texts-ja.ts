// What each Settings row is for, in Japanese: the settings dialog shows a row by this text on a Japanese page.
import type { SettingKey } from './settings.js';

// Keyed by every setting key, so tsc refuses a setting without its Japanese text (and a text for no setting).
export const SETTING_DESCRIPTIONS_JA: Readonly<Record<SettingKey, string>> = {
  locale: 'プロンプトとサイドバーの言語（ja または en）',
  'access.admins':
    'スプレッドシートの所有者のほかに、API クライアント・API キー・ワーカー・設定・エージェント・プロンプトを管理する編集者のメールアドレス',
  'access.coordinators':
    '承認・差し戻し・却下、異議、実行指示の報告、指示も行える編集者のメールアドレス。ほかの編集者は閲覧・議論の開始・受信箱への回答ができます',
  'limits.max_concurrent_discussions': '同時に進める議論の数。超えた分はキューで待ちます',
  'limits.max_messages_per_discussion': '1つの議論の発言数の上限。超えると次のフェーズへ進みます',
  'limits.agent_objections_per_discussion': '評議会が自らの実行指示に出せる異議の数（1議論あたり。堂々巡りを防ぎます）',
  'limits.max_tokens_per_discussion': '1つの議論のトークン数。超えると前の発言を要約します',
  'limits.input_tokens':
    '1つの入力（きっかけの内容、メモ、異議、発言）がプロンプトで使えるトークン数。長い入力は先頭と末尾を残し、全文への参照を付けます（200 以上）',
  'limits.daily_token_budget': '1日に使えるトークン数。超えるとルールベースに切り替えます',
  'limits.daily_cost_budget_usd': '1日に使える費用（USD）。超えるとルールベースのエージェントに切り替えます',
  'limits.discussion_timeout_hours': 'この時間内に決定しない議論は時間切れになります',
  'discussion.escalation_timeout_hours':
    '人の判断待ちの議論に、この時間内に誰も答えなければ時間切れになります。半分の時間で受信箱に催促が届きます',
  'phase.max_seconds': 'フェーズごとの最長時間。超えた発言者はエラー（E001）になります',
  'phase.target_seconds': 'フェーズごとの目標時間（ダッシュボードに表示）',
  'confidence.weights': '算出信頼度の要素の重み（データの新しさ、網羅性、過去の的中率、件数、専門家の一致）',
  'confidence.band_heavy': 'この値以上なら重く採用します',
  'confidence.band_reference': 'この値以上なら参考にします',
  'confidence.band_crosscheck': 'この値以上なら他の意見と照合します',
  'confidence.band_feedback': 'この値以上（照合の基準未満）なら追加データを求めます',
  'confidence.max_feedback_rounds': '1つの議論で追加データの依頼と回答を繰り返せる回数',
  'confidence.record_min_opinions':
    '採点済みの意見がこの数以上ある信頼度の帯（0.7〜0.8 など）ごとに、専門家にその帯で正しかった割合を示し、信頼度をそれに合わせるよう求めます。0（既定。シミュレーションでは信頼度の順序が整う専門家がかえって減ったため）なら示しません',
  'archive.spreadsheet_name': '保存期間を過ぎた行を移すアーカイブ用スプレッドシートの名前',
  'archive.cell_threshold':
    'スプレッドシートのセル数上限（1,000 万セル）に対する割合。これを超えると、古い完了済みの議論を早めにアーカイブへ移します',
  'archive.max_share':
    'アーカイブ用スプレッドシート1つのセル数上限（1,000 万セル）に対する割合。これを超えると、アーカイブ処理は新しいアーカイブ用スプレッドシートを作り、以後の行をそちらへ移します',
  'queue.lease_seconds': '取得したタスクを保持する秒数。過ぎると別の実行が取り直せます',
  'queue.max_attempts': '失敗したタスクを試す回数。使い切ると停止し、人に通知します',
  'queue.tick_budget_seconds': 'トリガーの1回の実行がこの秒数を過ぎたら新しい仕事を取りません（上限は 360 秒）',
  'queue.commit_every_seconds':
    '進行中の議論がステップを書き込む間隔（秒）。早く終わったステップはまとめて書き込みます',
  'queue.nudge_delay_ms': '新しい仕事を積んだあとに予約する一回限りのトリガーの遅延（ミリ秒、1000 以上）',
  'queue.backstop_minutes':
    '予備の定期実行の間隔（分）。1・5・10・15・30 のいずれか（ほかは切り下げ）。変更後は「セットアップ／修復」を実行してください',
  'dashboard.refresh_delay_seconds':
    '議論の終了からこの秒数後の最初の実行でダッシュボードを更新します（その間に終わった議論をまとめて1回）',
  'retry.max_attempts': 'モデル呼び出し1回あたりの通信の試行回数（再試行できる失敗は間隔をあけて再試行）',
  'retry.base_seconds': '再試行の待ち時間の基準（基準 × 2^(n-1) 秒＋ゆらぎ）',
  'retry.max_jitter_ms': '再試行の待ち時間に加えるゆらぎの上限（ミリ秒）',
  'triggers.types':
    '議論を開始できるきっかけの種類（日本語と英語の表示名・説明つき）。開始ダイアログと API はこの順に示し、ほかの種類は受け付けません',
  'watcher.metric': '監視ルールが追う KPI の指標',
  'watcher.consecutive_days': '指標がこの日数続けて下がったら議論を開きます',
  'watcher.min_drop_ratio': 'その期間の合計の下げ幅の最小値（開始時の値に対する割合）',
  'watcher.anomaly_sigma': 'メンバーの最新値が平均から標準偏差のこの倍数以上離れたら、受信箱に異常を知らせます',
  'watcher.anomaly_window_days': '平均と標準偏差を計算する、最新値より前の日数',
  'watcher.anomaly_min_points': 'その期間の値がこれより少なければ異常を知らせません',
  'outcome.review_days': '決定から効果測定日までの日数（ルールベースの決定。モデルは自ら提案します）',
  'outcome.target_change': 'ルールベースの決定が見込む監視指標の変化（0.2 = +20%）',
  'outcome.window_days': 'ルールベースの決定が設定する基準期間と測定期間の日数',
  'data.read_attempts': 'KPI やメンバーのデータを読む試行回数。読めなければデータなしで進めます（E002）',
  'data.kpi_cache_seconds':
    'KPI タブのキャッシュを議論が使い続けてよい秒数。Kaigi の KPI 書き込みとタブの手編集ではすぐに読み直します（0 なら毎回読みます）',
  'outcome.confirm_max_error': '予測誤差がこの値以下なら予測どおりと判定します',
  'outcome.reject_min_error': '予測誤差がこの値以上なら予測は外れと判定します',
  'outcome.min_data_points': 'データ点がこれより少なければ判定を保留します',
  'outcome.effect_min_share':
    '効果の判定：指標が目標変化のこの割合以上よい方向へ動けば「効果あり」、同じだけ逆へ動けば「悪化」',
  'learning.initial_confidence': '新しい学びの確信度',
  'learning.deactivate_below': '確信度がこれを下回った学びは無効にします（削除はしません）',
  'learning.auto_promote_count':
    '個人の学びがこの回数うまく使われたら共有を提案します（受信箱）。自動昇格が有効ならすぐに共有します',
  'learning.auto_promote': '個人の学びを人に確認せずに共有へ昇格します（既定では人が先に確認します）',
  'learning.prompt_suggest_drop':
    '直近 3 回の自己評価が前回以下のまま合計でこの値以上下がり、同じ改善点を再び挙げたエージェントは、プロンプトに加える 1 行を提案します（受信箱、コーディネーターが承認）。0 なら提案しません',
  'learning.merge_similarity':
    '同じエージェントの有効な学びとの類似度（コサイン）がこれ以上なら、行を増やさずその学びを強めます',
  'inbox.status_report_days': '受信箱に状況報告（決定、判定の割合、覆り、予算）を送る間隔（日）。0 なら送りません',
  'inbox.milestone_accuracy': '効果測定済みの決定での的中率がこの値に達したエージェントを、受信箱の節目で紹介します',
  'inbox.milestone_min_verdicts': '的中率が節目の対象になるまでに必要な判定済みの数',
  'learning.confirm_step':
    '学びを使った決定が予測どおりだったとき、1 までの残りのこの割合を確信度に加えます（0.1 ×（1 − 確信度））',
  'learning.reject_step': '学びを使った決定の予測が外れたとき、確信度のこの割合を引きます（0.15 × 確信度）',
  'learning.inconclusive_step': '学びを使った決定の判定が保留だったときに加える確信度',
  'learning.confidence_cap': '学びの確信度の上限',
  'learning.confidence_floor': '学びの確信度の下限',
  'learning.max_injected': 'エージェントに渡す学びの最大数（関連の強い順）',
  'learning.max_injected_tokens':
    'エージェントのプロンプトで学びが使えるトークン数。超えるときは関連の弱いものから外します',
  'outcome.recheck_days':
    '判定保留の決定は、この日数以内に測定期間の KPI が届けば一度だけ再判定します。0 なら再判定しません',
  'memory.enabled': '学びと過去の事例を議論に取り込み、結果から学びます',
  'learning.reliability_weights': '判定から学んだ信頼性で専門家の票に重みを付けます（オフなら表示のみで使いません）',
  'retrieval.top_k': 'エージェントごとに取り出す学びの数',
  'retrieval.min_confidence': '確信度がこれ未満の学びは取り出しません',
  'retrieval.exact_rows':
    '保存された埋め込みがこの数までは全値を復号して比べます。超えると粗い比較で選んだ行だけを正確に比べます',
  'retrieval.rerank_rows':
    '全値で比べる数を超える埋め込みがあるとき、求める件数に加えて粗い比較から正確な比較に回す行の数',
  'retrieval.weights': '検索スコア＝類似度×重み＋新しさ×重み＋確信度×重み（新しさは新規で 1、半減期で ½）',
  'retrieval.half_life_days': '学びや事例の重みが半分になる日数（0 なら古さで割り引きません）',
  'learning.decay_days':
    'この日数使われなかった学びは日次の見直しで無効にします（削除はしません。0 なら無効にしません）',
  'embedding.provider': '埋め込みの提供元（オフライン、OpenAI、Gemini のいずれか）',
  'embedding.model': '埋め込みモデルの名前',
  'embedding.dimensions': '埋め込みの次元数',
  'provider.default':
    'エージェントの行で指定がないときのモデル提供元（ルール、OpenAI、Anthropic、Gemini、OpenAI 互換）',
  'provider.base_url': 'OpenAI 互換の提供元のベース URL',
  'provider.base_urls': 'ゲートウェイを通すときの提供元ごとのベース URL。空なら各社の既定の接続先',
  'provider.parallel': '同じフェーズのエージェントを並行して呼び出します（オフなら1つずつ）',
  'provider.fetch_concurrency':
    '一度にまとめて送る要求の数。超えたエージェントは次の回に回し、時間内に終われるときだけ始めます',
  'provider.default_models': '提供元ごとの既定のモデル',
  'provider.prices_per_1k_tokens_usd':
    '提供元とモデルごとの 1,000 トークンあたりの価格（入力・出力、提供元にあればキャッシュの読み出しと書き込み）。載っていないモデルはその提供元の最も高いモデルの価格で計算し、受信箱で一度知らせます。OpenAI 互換のモデルは価格を登録するまで予算上 0 ドルです（開始ダイアログが警告します）',
  'provider.prices_taken':
    '価格表の既定価格を各社の料金ページから読んだ日。予算に頼る前に確認し、表と一緒にこの行も更新してください',
  'provider.model_capabilities':
    'モデル名（またはその先頭）ごとの対応（最長一致、項目ごと）：温度を受け付けるか、出力上限をどの項目で渡すか、先に考えるモデルの上限に足すトークン数、キャッシュされる最短の長さ。載っていないモデルは温度を受け付け、提供元の上限の項目を使います',
  'provider.max_output_tokens':
    '1つの回答が使える出力トークン数（回答の種類ごと、なければエージェントのグループごと、ルームでの回答）。エージェントの行の上限が優先です。上限で切れた回答は上限を2倍にして一度だけ聞き直します',
  'actions.allow_list': '実行指示に含められる施策の種類。ほかは拒否します',
  'directives.prefer_weight':
    '指示で優先された施策が評議会の投票で得る点数（専門家の重みの合計は 1。人の方針として半票分）',
  'kpi.metrics':
    '指標の表：KPI の指標ごとに名前、日本語と英語の表示名、種類（件数、時間、割合、点数、連続日数）、よい方向（上か下）、範囲、監視するか。表にない指標や範囲外の行は拒否し、表の指標だけがプロンプトに届き、監視する指標の悪い変化だけが議論を開きます',
  'kpi.earliest_date':
    'この日（年-月-日）より前の KPI の行は拒否します。シートのタイムゾーンで明日以降の行は常に拒否します',
  'grounding.min_baseline_days':
    '議論の対象の指標について、議論前の基準期間に必要なデータのある日数。足りなければ評議会は決定しません（受付で拒否するか、データなしとして人に回します）',
  'grounding.baseline_days': '議論の前に基準データを探す日数',
  'grounding.contradiction_penalty': 'KPI のデータと食い違う指標の主張1つごとに、意見の算出信頼度から引く値',
  'kpi.metric_descriptions': 'プロンプトに渡す、KPI の各指標の意味（指標名と意味の組）',
  'api.rate_limit_per_minute': 'トークン1つあたり1分間の API の要求数',
  'api.max_body_bytes': 'API が受け付ける要求本文の最大バイト数',
  'api.max_kpi_rows': 'API や MCP の1回の呼び出しで送れる KPI の行数。超えると拒否します（413）',
  'api.client_daily_tokens':
    '1つの API クライアントの呼び出しで評議会が1日に使えるトークン数（ルームを含む）。数か、1日のトークン予算に対する割合（例: 10%）',
  'api.log_digest_rows': '一度に監査の連鎖へつなぐ API ログの行数（まとめた要約を監査の1行に記録。混雑時はそれ以下）',
  'api.log_retention_days': 'API ログの行をアーカイブへ移すまでの日数（まとまりごと）。0 なら移しません',
  'api.log_max_rows':
    'スプレッドシートに残す API ログの行数。超えると日次の点検が古いまとまりから新しさによらずアーカイブへ移します（1行 6 列。25 万行は 1,000 万セルの 15%）。0 なら無制限',
  'api.log_waiting_rows': '実行を待てる API ログの行数。超えたのを見つけた呼び出しがロックのもとで自ら書き込みます',
  'api.status_max_age_seconds':
    '前回から何も書き込まれていないとき、状態の問い合わせにキャッシュから答えてよい最長の秒数（キューの保持、ルームの在席）',
  'budget.reserve_share':
    '1日のトークン予算のうち評議会自身の議論のために残す割合。API クライアントは合わせてもここまで使えません',
  'api.max_wait_seconds':
    '待つよう求めたタスクの要求が、応答（202）の前に自分の要求の中で議論を進める最長の秒数（0 なら待ちません。呼び出し側の通信の待ち時間はこれより長くしてください）',
  'api.replay_seconds':
    '同じトークン・要求番号・引数で送り直された MCP のツール呼び出しに、もう一度実行せず最初の答えを返す秒数。クライアントはセッションごとに番号を 0 から振り直すため短くします',
  'rooms.max_rooms': 'クライアントが作れるフリールームの数（議論のルームは数えません）',
  'rooms.max_messages_per_room': '1つのフリールームに入るメッセージ数。超えると拒否します',
  'rooms.max_message_chars': 'ルームのメッセージの最大文字数',
  'rooms.max_name_chars': 'ルーム名やエージェント名の最大文字数',
  'rooms.max_mentions_per_message': '1つのメッセージで呼びかけられる評議会のエージェント数。超えると拒否します',
  'rooms.agent_replies_per_minute':
    '1つのルームが1分間に求められる評議会のエージェントの回答数（呼びかけの数）。超えると拒否します',
  'rooms.presence_seconds': '最後の呼び出しからこの秒数以内ならルームの参加者は在席です',
  'rooms.context_messages': '呼びかけられた評議会のエージェントが答える前に読む直近のメッセージ数',
};
