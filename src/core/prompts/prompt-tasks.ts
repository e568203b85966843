// What each kind of answer is asked to do, in Japanese and English: the task line closing every prompt.

type Both = [ja: string, en: string];

const CONFIDENCE: Both = [
  'confidence は推奨を実行して成功基準を満たす確率（0〜1）。',
  'confidence is the probability (0–1) that your recommendation, carried out, meets its success criteria.',
];

// A specialist shown its record of stated confidence states one in line with it: added to its task only when the
// record is shown, so a council that shows none sends no sentence about it.
export const RECORD_TASK: Both = [
  'your_confidence_record は、述べた信頼度の帯ごとに実際に正しかった割合です。信頼度はそれに合わせてください（0.8 と述べて 55 % しか正しくなかったなら 0.55 前後）。',
  'your_confidence_record is how often you were right when you stated each band of confidence: state a confidence in line with it (if your 0.8s were right 55 % of the time, say about 0.55).',
];

export const TASKS: Record<string, Both> = {
  SITUATION_REPORT: [
    'トリガーと KPI 表から事実だけをまとめてください。data_points の metric は KPI 表の列名、change は表から計算した変化率です。severity は変化の大きさと期間で決めます。',
    'Summarise the facts of the trigger from the KPI table only. Each data_points metric is a column name of the KPI table and change is computed from the table. Severity follows the size and duration of the change.',
  ],
  SPECIALIST_OPINION: [
    `専門の観点から仮説（hypothesis）を立て、根拠（evidence）に表の数値を引き、推奨する施策を一つ選んでください。変化を述べる根拠は「contacts 7d: 12 → 5 (down)」の形（指標 日数d: 前 → 後 (up|down|flat)）で書きます。Kaigi が KPI 表から検算し、表と矛盾する主張は算出信頼度を下げます。${CONFIDENCE[0]}`,
    `From your speciality, form a hypothesis, cite numbers from the tables as evidence, and recommend one action from the action types. Write an evidence item that states a change as "contacts 7d: 12 → 5 (down)" (metric Nd: before → after (up|down|flat)); Kaigi recomputes it from the KPI table, and a claim the table contradicts lowers the computed confidence. ${CONFIDENCE[1]}`,
  ],
  FEEDBACK_RESPONSE: [
    '決裁者の質問（feedback_question）に、表から読み取れる追加の根拠で答えてください。source_data には使った表と値を書きます。',
    "Answer the decider's feedback_question with further evidence from the tables; source_data names the tables and values you used.",
  ],
  PERSPECTIVE_POSITIVE: [
    'earlier_answers の専門家の意見を読み、前向きな見方と機会を示してください。',
    "Read the specialists' digests in earlier_answers and give the positive view and the opportunity in them.",
  ],
  PERSPECTIVE_NEGATIVE: [
    'earlier_answers の専門家の意見を読み、最も大きなリスクと懸念、それに代わる提案を示してください。',
    "Read the specialists' digests in earlier_answers and name the biggest risk, the concern, and a counter-proposal.",
  ],
  PERSPECTIVE_HUMAN: [
    'earlier_answers の専門家の意見を読み、本人が実際に続けられるかを現実的に評価してください。',
    "Read the specialists' digests in earlier_answers and judge realistically whether the person can keep it up.",
  ],
  GOVERNANCE_ETHICS: [
    '審査の対象は draft_order があればその実行指示の文面そのもの、なければ earlier_answers の推奨施策です。尊厳・自律・プライバシーを損なう要素が一つでもあれば FAIL。迷ったら FAIL とし、理由を concerns に書いてください。',
    "Judge the draft_order's own text when there is one, else the recommended actions in earlier_answers. Anything against dignity, autonomy or privacy is a FAIL; when in doubt, FAIL, with the reasons in concerns.",
  ],
  GOVERNANCE_LEGAL: [
    '審査の対象は draft_order があればその実行指示の文面そのもの、なければ earlier_answers の推奨施策です。労働時間の上限、個人情報、ハラスメントの観点で問題があれば FAIL。迷ったら FAIL とし、理由を concerns に書いてください。',
    "Judge the draft_order's own text when there is one, else the recommended actions in earlier_answers: working-time limits, personal data, harassment. Any problem is a FAIL; when in doubt, FAIL, with the reasons in concerns.",
  ],
  DECISION: [
    [
      '重みと票は Kaigi が計算済みです（weights_and_votes_computed_by_kaigi）。それを踏まえて施策を決め、理由を説明してください。',
      '返す JSON は {"deliberation", "order"}。deliberation には合意点・対立点・少数意見・selected_action_types・rationale（票と異なる選択をするならその理由）を書きます。',
      'order：target_agents は実行担当。buddy は実際に行う人（マネージャーや同僚）、別のシステムならその API クライアント名です。actions は選んだ種類ごとに一つ、その種類の項目を埋めます。',
      'monitoring.success_criteria：metric は KPI 表の列名、target_change は見込む変化率（0.2 = 基準より20%増減）。判定の仕組みは上のとおりです。',
    ].join('\n'),
    [
      "Kaigi has computed each specialist's weight and the votes (weights_and_votes_computed_by_kaigi). Decide from them and explain.",
      'Return JSON {"deliberation", "order"}. The deliberation holds consensus and conflicting points, dissenting opinions, selected_action_types and the rationale (why, when your choice differs from the votes).',
      "order: target_agents are the executors: buddy is whoever on the team does it (the manager or a peer); another system is named by its API client name. actions: one per selected type, with that type's own fields.",
      'monitoring.success_criteria: metric is a column of the KPI table; target_change is the relative change you forecast over window_days (0.2 = 20 % above or below the baseline window). On the review date a forecast within 30 % of the measured value confirms the decision and one 50 % or more off rejects it (overshooting misses too).',
    ].join('\n'),
  ],
  LEARNING: [
    '決定（earlier_answers）と測定結果（outcome）から、次の議論で役立つ学びを抽出してください。scope は individual（特定のエージェント向け、agent_id を指定）か shared（全員向け）。content は事実に基づく一文、context はどの状況で当てはまるかです。結果が inconclusive なら学びは空にします。',
    'From the decision (earlier_answers) and its measured outcome, extract what will help next time. scope is individual (for one agent, named in agent_id) or shared (for all). content is one factual sentence; context says when it applies. When the verdict is inconclusive, return no learnings.',
  ],
  REFLECTION: [
    'あなた自身の発言（earlier_answers のうちあなたのもの）と決定、測定結果（outcome：判定、予測と実測、your_record はこれまでの成績）を読み、自分の仕事を振り返ってください。self_score は 1〜10、score_reasoning はその根拠、what_went_well・what_to_improve・next_actions は具体的に（next_actions は「〇〇する」の形）。lesson は次の議論で自分が使う事実に基づく一文、category はその対象（施策の種類など）です。',
    'Read your own answers (yours among earlier_answers), the decision and its measured outcome (outcome: the verdict, predicted against measured, your_record so far) and reflect on your own work. self_score is 1–10 with score_reasoning; what_went_well, what_to_improve and next_actions are concrete (next_actions as things you will do). lesson is one factual sentence you will use in your next discussion; category is what it is about (an action type, say).',
  ],
  DEFAULT: [
    '{expect} のスキーマに合う JSON オブジェクトを返してください。',
    'Return a JSON object matching the {expect} schema.',
  ],
};

// The learning call's own role: a recorder of what the decision taught, not the decider (whose output is an order).
export const LEARNING_ROLE: Both = [
  '# 役割\nあなたは Kaigi 会議の記録係です。決定とその結果を読み、次の議論に役立つ学びだけを JSON で返します。推測で数値を作らないでください。',
  '# Role\nYou are the recorder of the Kaigi council. Read a decision and its measured result and return, as JSON, only the learnings that will help the next discussion. Never invent numbers.',
];
