<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ExperimentsView</name>
    <message>
        <source>lengths: &apos;%1&apos; is not a length between 1 and 200</source>
        <translation>长度：“%1”不是 1 到 200 之间的长度</translation>
    </message>
    <message>
        <source>lengths: give at least one sentence length, e.g. 5, 10, 20</source>
        <translation>长度：请至少给出一个句子长度，例如 5, 10, 20</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
</context>
<context>
    <name>attnlab::AttentionPanel</name>
    <message>
        <source>Which decoder layer&apos;s cross-attention to show.</source>
        <translation>要显示哪一个解码器层的交叉注意力。</translation>
    </message>
    <message>
        <source>One attention head, or the mean of all heads of the layer.</source>
        <translation>单个注意力头，或该层所有注意力头的平均值。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>注意力头：</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>缩小 (-)</translation>
    </message>
    <message>
        <source>Zoom in (+, or Ctrl+wheel)</source>
        <translation>放大（+，或 Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Show the whole map (0, or double-click)</source>
        <translation>显示整张热力图（0，或双击）</translation>
    </message>
    <message>
        <source>No attention to show yet.</source>
        <translation>暂无可显示的注意力。</translation>
    </message>
    <message>
        <source>mean of all</source>
        <translation>全部平均</translation>
    </message>
    <message>
        <source>The model ended the output at once, so there is no output token to show attention for. Train it a little longer.</source>
        <translation>模型一开始就结束了输出，因此没有可以显示注意力的输出词元。请再多训练一会儿。</translation>
    </message>
    <message>
        <source>This model has no attention: its decoder sees the whole sentence as one fixed vector. Choose an attention variant to see where it looks.</source>
        <translation>这个模型没有注意力：它的解码器把整个句子看作一个固定向量。请选择一种注意力变体，才能看到模型关注的位置。</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Cross-attention, layer %1, head %2</source>
        <translation>交叉注意力，第 %1 层，注意力头 %2</translation>
    </message>
    <message>
        <source>Cross-attention, layer %1, mean of %2 heads</source>
        <translation>交叉注意力，第 %1 层，%2 个注意力头的平均</translation>
    </message>
    <message>
        <source>Click token labels (Ctrl+click for several) to sum their attention; Escape clears.</source>
        <translation>单击词元标签（按住 Ctrl 单击可选多个）即可对它们的注意力求和；按 Esc 清除选择。</translation>
    </message>
</context>
<context>
    <name>attnlab::AttributionView</name>
    <message>
        <source>Is the cross-attention an explanation of the translation? For one output word, its attention over the source beside four attribution methods: which source words the word&apos;s score depends on (gradients, integrated gradients) and what removing each one changes (leave one out).</source>
        <translation>交叉注意力能解释翻译吗？对一个输出词，把它在源句上的注意力与四种归因方法并列：这个词的得分依赖哪些源词（梯度、积分梯度），以及去掉每个源词会带来什么变化（留一法）。</translation>
    </message>
    <message>
        <source>A sentence to translate</source>
        <translation>要翻译的句子</translation>
    </message>
    <message>
        <source>The output word to explain</source>
        <translation>要解释的输出词</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>Output word:</source>
        <translation>输出词：</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Kendall τ</source>
        <translation>Kendall τ</translation>
    </message>
    <message>
        <source>Spearman ρ</source>
        <translation>Spearman ρ</translation>
    </message>
    <message>
        <source>Cannot explain: %1</source>
        <translation>无法解释：%1</translation>
    </message>
    <message>
        <source>Attribution</source>
        <translation>归因</translation>
    </message>
    <message>
        <source>One output word&apos;s cross-attention beside gradients, integrated gradients and leave-one-out over the source.</source>
        <translation>一个输出词的交叉注意力，与源句上的梯度、积分梯度和留一法并列。</translation>
    </message>
    <message>
        <source>Type a sentence first.</source>
        <translation>请先输入一个句子。</translation>
    </message>
    <message>
        <source>Explaining…</source>
        <translation>正在解释…</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (p = %2) in “%3”</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（p = %2），出自“%3”</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Integrated gradients: sum of attributions %1, logit difference %2 (%3 steps)</source>
        <translation>积分梯度：归因之和 %1，logit 差 %2（%3 步）</translation>
    </message>
    <message>
        <source>Train or open a translation model, type a sentence and press Explain.</source>
        <translation>请训练或打开一个翻译模型，输入句子后点击“解释”。</translation>
    </message>
    <message>
        <source>Explain an output word first</source>
        <translation>请先解释一个输出词</translation>
    </message>
    <message>
        <source>The attribution is exported as PNG, SVG or PDF</source>
        <translation>归因只能导出为 PNG、SVG 或 PDF</translation>
    </message>
</context>
<context>
    <name>attnlab::BackgroundJob</name>
    <message>
        <source>an unknown error occurred</source>
        <translation>发生了未知错误</translation>
    </message>
</context>
<context>
    <name>attnlab::BeamTreeWidget</name>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>the translation</source>
        <translation>返回的译文</translation>
    </message>
    <message>
        <source>ended with &lt;/s&gt;</source>
        <translation>以 &lt;/s&gt; 结束</translation>
    </message>
    <message>
        <source>dropped later</source>
        <translation>之后被淘汰</translation>
    </message>
    <message>
        <source>box: the token&apos;s probability · the hypothesis&apos; log-probability</source>
        <translation>方框：该词元的概率 · 该假设的对数概率</translation>
    </message>
</context>
<context>
    <name>attnlab::CacheTable</name>
    <message>
        <source>No cache to show.</source>
        <translation>没有可显示的缓存。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>key k</source>
        <translation>键 k</translation>
    </message>
    <message>
        <source>value v</source>
        <translation>值 v</translation>
    </message>
    <message>
        <source>new query&apos;s weight</source>
        <translation>新查询的权重</translation>
    </message>
    <message>
        <source>%1 numbers each (layer %2, head %3)</source>
        <translation>每个 %1 个数（第 %2 层，第 %3 个头）</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新</translation>
    </message>
</context>
<context>
    <name>attnlab::CandidateChart</name>
    <message>
        <source>The cut keeps %1 tokens, %2 of the probability; each is drawn in proportion.</source>
        <translation>截断保留 %1 个词元，占概率的 %2；每个词元按其比例被抽中。</translation>
    </message>
    <message>
        <source>The %1 most probable are shown.</source>
        <translation>这里显示概率最高的 %1 个。</translation>
    </message>
    <message>
        <source>Only 1 token survives the cut: it is chosen for certain.</source>
        <translation>只有 1 个词元通过截断：它必然被选中。</translation>
    </message>
</context>
<context>
    <name>attnlab::ClassifierCurvesView</name>
    <message>
        <source>Train a classifier: its loss, accuracy and F1 appear here after every epoch.</source>
        <translation>训练一个分类器：每轮结束后，它的损失、准确率和 F1 会显示在这里。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>cross-entropy per text</source>
        <translation>每条文本的交叉熵</translation>
    </message>
    <message>
        <source>Validation scores</source>
        <translation>验证指标</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Macro F1</source>
        <translation>宏平均 F1</translation>
    </message>
    <message>
        <source>Rationale mass (attention on the gold words)</source>
        <translation>依据占比（落在标准依据词上的注意力）</translation>
    </message>
    <message>
        <source>Rationale mass of uniform attention</source>
        <translation>均匀注意力的依据占比</translation>
    </message>
    <message>
        <source>share (0 to 1)</source>
        <translation>比例（0 到 1）</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Epoch %1:  validation loss %2 · accuracy %3% · macro F1 %4</source>
        <translation>第 %1 轮：验证损失 %2 · 准确率 %3% · 宏平均 F1 %4</translation>
    </message>
    <message>
        <source>rationale mass %1 (uniform %2)</source>
        <translation>依据占比 %1（均匀注意力 %2）</translation>
    </message>
    <message>
        <source>attention entropy %1 nats (uniform %2)</source>
        <translation>注意力熵 %1 nat（均匀注意力 %2）</translation>
    </message>
    <message>
        <source>%1 texts/s</source>
        <translation>%1 条文本/秒</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>The classifier&apos;s loss, accuracy, macro F1 and attention on the gold words after every epoch.</source>
        <translation>每轮结束后分类器的损失、准确率、宏平均 F1，以及落在标准依据词上的注意力。</translation>
    </message>
    <message>
        <source>the curves are exported as CSV, not NPY: save the file with the .csv extension</source>
        <translation>曲线只能导出为 CSV，不能导出为 NPY：请用 .csv 扩展名保存文件</translation>
    </message>
    <message>
        <source>there are no curves to export yet: train a classifier first</source>
        <translation>还没有可导出的曲线：请先训练一个分类器</translation>
    </message>
    <message>
        <source>Classifier training curves</source>
        <translation>分类器训练曲线</translation>
    </message>
</context>
<context>
    <name>attnlab::ClassifierSession</name>
    <message>
        <source>no model yet</source>
        <translation>尚无模型</translation>
    </message>
    <message>
        <source>choose the texts to measure the heads on first</source>
        <translation>请先选择用于测量注意力头的文本</translation>
    </message>
    <message>
        <source>%1 (validation)</source>
        <translation>%1（验证集）</translation>
    </message>
</context>
<context>
    <name>attnlab::ClassifierSetupPanel</name>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>sentiment: reviews with negation and contrast</source>
        <translation>sentiment：含否定与转折的评论</translation>
    </message>
    <message>
        <source>topic: keywords among distractors</source>
        <translation>topic：混在干扰词中的关键词</translation>
    </message>
    <message>
        <source>needle: one keyword in a long text</source>
        <translation>needle：长文本中的一个关键词</translation>
    </message>
    <message>
        <source>langid: this computer&apos;s translations, by language</source>
        <translation>langid：本机软件的界面翻译，按语言分类</translation>
    </message>
    <message>
        <source>TSV file (text, tab, label)…</source>
        <translation>TSV 文件（文本、制表符、标签）…</translation>
    </message>
    <message>
        <source>The built-in datasets are generated from the seed and know which words decide each label (the gold rationale); langid reads the gettext catalogues under /usr/share/locale.</source>
        <translation>内置数据集由随机种子生成，并且知道哪些词决定了每个标签（即标准依据）；langid 读取 /usr/share/locale 下的 gettext 翻译目录。</translation>
    </message>
    <message>
        <source>Texts to generate (langid: messages per language).</source>
        <translation>要生成的文本数（langid：每种语言的消息数）。</translation>
    </message>
    <message>
        <source>Words per needle text: the longer, the harder for a GRU&apos;s last state.</source>
        <translation>每条 needle 文本的词数：文本越长，仅靠 GRU 的最后一个状态就越难分类。</translation>
    </message>
    <message>
        <source>The same seed gives the same texts on every computer.</source>
        <translation>相同的种子在任何计算机上都会生成相同的文本。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Texts:</source>
        <translation>文本数：</translation>
    </message>
    <message>
        <source>Needle length:</source>
        <translation>needle 长度：</translation>
    </message>
    <message>
        <source>Data seed:</source>
        <translation>数据种子：</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>GRU with attention pooling</source>
        <translation>带注意力池化的 GRU</translation>
    </message>
    <message>
        <source>Transformer with [CLS]</source>
        <translation>带 [CLS] 的 Transformer</translation>
    </message>
    <message>
        <source>additive (Bahdanau, Lin et al.)</source>
        <translation>加性（Bahdanau，Lin et al.）</translation>
    </message>
    <message>
        <source>dot, against a learned query</source>
        <translation>点积（与一个学到的查询向量）</translation>
    </message>
    <message>
        <source>scaled dot</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>none: the last state</source>
        <translation>无：最后一个状态</translation>
    </message>
    <message>
        <source>mean: uniform weights</source>
        <translation>平均：均匀权重</translation>
    </message>
    <message>
        <source>How the GRU&apos;s states become one vector. &apos;none&apos; and &apos;mean&apos; are the baselines without attention.</source>
        <translation>GRU 的各个状态如何汇聚成一个向量。“无”和“平均”是不使用注意力的基线。</translation>
    </message>
    <message>
        <source>Attention rows (hops), each its own weights over the words (Lin et al. 2017).</source>
        <translation>注意力的行数（hops），每一行对各个词都有自己的一组权重（Lin et al. 2017）。</translation>
    </message>
    <message>
        <source>GRU size per direction, or the Transformer&apos;s width.</source>
        <translation>GRU 每个方向的隐藏层大小，或 Transformer 的宽度。</translation>
    </message>
    <message>
        <source>Transformer encoder layers.</source>
        <translation>Transformer 编码器的层数。</translation>
    </message>
    <message>
        <source>Transformer heads; they must divide the width.</source>
        <translation>Transformer 的注意力头数；必须能整除宽度。</translation>
    </message>
    <message>
        <source>Read both directions</source>
        <translation>双向读取</translation>
    </message>
    <message>
        <source>words</source>
        <translation>词</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>字符</translation>
    </message>
    <message>
        <source>Characters suit language identification; rationales are scored over words.</source>
        <translation>按字符读取适合语言识别；依据则按词评估。</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>Pooling:</source>
        <translation>池化：</translation>
    </message>
    <message>
        <source>Hops:</source>
        <translation>注意力行数：</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>注意力头数：</translation>
    </message>
    <message>
        <source>Reads:</source>
        <translation>读取单位：</translation>
    </message>
    <message>
        <source>Passes over the training texts.</source>
        <translation>遍历训练文本的次数。</translation>
    </message>
    <message>
        <source>Texts per update.</source>
        <translation>每次更新使用的文本数。</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>local window</source>
        <translation>局部窗口</translation>
    </message>
    <message>
        <source>strided</source>
        <translation>跨步</translation>
    </message>
    <message>
        <source>chunked</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>linear (kernelised)</source>
        <translation>线性（核化）</translation>
    </message>
    <message>
        <source>Which words the Transformer&apos;s self-attention looks at. Full: all of them, O(N²). Local: those within W of the word. Strided: that band and every s-th word. Chunked: its own chunk and one summary of every other chunk. Linear: all, through a kernel instead of a softmax, O(N). [CLS] is the first position, so it sees what the pattern lets the first position see.</source>
        <translation>Transformer 的自注意力看哪些词。完全：全部，O(N²)。局部：与该词相距 W 以内的词。跨步：该窗口以及每隔 s 个的词。分块：自己的块以及其他每个块的一个摘要。线性：全部，但用核函数代替 softmax，O(N)。[CLS] 位于第一个位置，所以它看到的是该模式允许第一个位置看到的内容。</translation>
    </message>
    <message>
        <source>W: how far local attention (and strided&apos;s band) reaches on each side.</source>
        <translation>W：局部注意力（以及跨步模式的窗口）向每一侧能够到多远。</translation>
    </message>
    <message>
        <source>Attention pattern:</source>
        <translation>注意力模式：</translation>
    </message>
    <message>
        <source>Window W:</source>
        <translation>窗口 W：</translation>
    </message>
</context>
<context>
    <name>attnlab::ClassifierTask</name>
    <message>
        <source>Epoch %1 of %2: accuracy %3, macro F1 %4</source>
        <translation>第 %1/%2 轮：准确率 %3，宏平均 F1 %4</translation>
    </message>
    <message>
        <source>, attention on the rationale %1 (uniform %2)</source>
        <translation>，依据上的注意力 %1（均匀注意力 %2）</translation>
    </message>
    <message>
        <source>Train or open a classifier, and choose its data, first.</source>
        <translation>请先训练或打开一个分类器，并选择它的数据。</translation>
    </message>
    <message>
        <source>Making the texts…</source>
        <translation>正在生成文本…</translation>
    </message>
    <message>
        <source>Cannot Open Corpus</source>
        <translation>无法打开语料</translation>
    </message>
    <message>
        <source>%1: %2 texts in %3 classes.</source>
        <translation>%1：%2 条文本，共 %3 个类别。</translation>
    </message>
    <message>
        <source>The current classifier and its unsaved training will be discarded.</source>
        <translation>当前分类器及其尚未保存的训练结果将被丢弃。</translation>
    </message>
    <message>
        <source>Train a New Classifier?</source>
        <translation>训练新的分类器？</translation>
    </message>
    <message>
        <source>Building the model…</source>
        <translation>正在构建模型…</translation>
    </message>
    <message>
        <source>Open Classification Corpus</source>
        <translation>打开分类语料</translation>
    </message>
    <message>
        <source>Tab-separated text and label (*.tsv *.txt);;All files (*)</source>
        <translation>制表符分隔的文本和标签 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a Classifier?</source>
        <translation>打开分类器？</translation>
    </message>
    <message>
        <source>Open Classifier</source>
        <translation>打开分类器</translation>
    </message>
    <message>
        <source>Save Classifier</source>
        <translation>保存分类器</translation>
    </message>
    <message>
        <source>Save the Classifier?</source>
        <translation>保存分类器？</translation>
    </message>
    <message>
        <source>The classifier has unsaved training.</source>
        <translation>分类器有尚未保存的训练结果。</translation>
    </message>
    <message>
        <source>Transformer classifier</source>
        <translation>Transformer 分类器</translation>
    </message>
    <message>
        <source>GRU classifier, %1 pooling</source>
        <translation>GRU 分类器，%1 池化</translation>
    </message>
    <message>
        <source>no corpus</source>
        <translation>无语料</translation>
    </message>
    <message>
        <source>Text classification</source>
        <translation>文本分类</translation>
    </message>
    <message>
        <source>A GRU with attention pooling, or a Transformer, labels texts; the explanation lab asks whether its attention explains the decision.</source>
        <translation>带注意力池化的 GRU 或 Transformer 为文本分配标签；解释实验探究它的注意力能否解释其决策。</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Choose the data first: no corpus file is chosen.</source>
        <translation>请先选择数据：尚未选择语料文件。</translation>
    </message>
    <message>
        <source>Text classification: %1</source>
        <translation>文本分类：%1</translation>
    </message>
    <message>
        <source>A setup saved from AttnLab: say here what the class should look for.</source>
        <translation>从 AttnLab 保存的设置：请在此说明该类别应寻找什么。</translation>
    </message>
    <message>
        <source>texts</source>
        <translation>文本</translation>
    </message>
</context>
<context>
    <name>attnlab::ClassifyView</name>
    <message>
        <source>Type a text to classify, e.g. the film was not good</source>
        <translation>输入要分类的文本，例如 the film was not good</translation>
    </message>
    <message>
        <source>Classify</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>Each word&apos;s background is its attention weight (darker = more); hover a word for the number.</source>
        <translation>每个词的背景色表示它的注意力权重（越深 = 越大）；鼠标悬停在词上可查看数值。</translation>
    </message>
    <message>
        <source>Self-attention of every layer (rows) and head (columns); token 0 is [CLS]</source>
        <translation>每一层（行）和每个注意力头（列）的自注意力；第 0 个词元是 [CLS]</translation>
    </message>
    <message>
        <source>Type a text: the label, every class&apos;s probability, and the words the attention pooled.</source>
        <translation>输入一段文本：查看标签、每个类别的概率，以及注意力池化所汇集的词。</translation>
    </message>
    <message>
        <source>Type a text first.</source>
        <translation>请先输入一段文本。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp; p = %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp; p = %2</translation>
    </message>
    <message>
        <source>(text truncated to the model&apos;s length)</source>
        <translation>（文本已截断到模型的最大长度）</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>注意力展开</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Hop %1</source>
        <translation>注意力行 %1</translation>
    </message>
    <message>
        <source>No attention</source>
        <translation>无注意力</translation>
    </message>
    <message>
        <source>Classify a text first</source>
        <translation>请先对一段文本进行分类</translation>
    </message>
    <message>
        <source>The Classify view is exported as PNG, SVG or PDF</source>
        <translation>“分类”视图只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>%1 (p = %2)</source>
        <translation>%1（p = %2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention over training&lt;/b&gt;: the same text at the end of every epoch</source>
        <translation>&lt;b&gt;训练中的注意力&lt;/b&gt;：每轮结束时同一段文本的注意力</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Switch Heads Off</source>
        <translation>关闭注意力头</translation>
    </message>
    <message>
        <source>Then click a head to switch it off, or on again: the text is classified again without it.</source>
        <translation>然后点击一个注意力头将其关闭，再点一次重新开启：文本会在没有它的情况下重新分类。</translation>
    </message>
    <message>
        <source>All On</source>
        <translation>全部打开</translation>
    </message>
    <message>
        <source>Every head on again.</source>
        <translation>重新开启所有注意力头。</translation>
    </message>
    <message>
        <source>1 head off</source>
        <translation>关闭了 1 个注意力头</translation>
    </message>
    <message>
        <source>%1 heads off</source>
        <translation>关闭了 %1 个注意力头</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: «%2» p = %3.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：«%2» p = %3。</translation>
    </message>
    <message>
        <source>With every head on: «%1» p = %2; the ablated model gives «%1» p = %3.</source>
        <translation>所有注意力头开启时：«%1» p = %2；消融后的模型给 «%1» 的概率为 %3。</translation>
    </message>
    <message>
        <source>Train a classifier (Run &gt; Start, F5) or open one: its label and attention for the text above appear here, and change as it learns.</source>
        <translation>训练一个分类器（运行 &gt; 开始，F5）或打开一个：它为上方文本给出的标签和注意力会显示在这里，并随着学习不断变化。</translation>
    </message>
</context>
<context>
    <name>attnlab::CompareView</name>
    <message>
        <source>Transformer · %1+%1 layers · %2 heads · d_model %3</source>
        <translation>Transformer · %1+%1 层 · %2 个注意力头 · d_model %3</translation>
    </message>
    <message>
        <source>GRU · %1 attention · hidden %2</source>
        <translation>GRU · %1 注意力 · 隐藏层 %2</translation>
    </message>
    <message>
        <source>Type a sentence and press Enter to translate it with both models</source>
        <translation>输入一个句子并按回车，用两个模型分别翻译</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Translate the sentence with both models (Enter).</source>
        <translation>用两个模型分别翻译该句子（回车）。</translation>
    </message>
    <message>
        <source>Scale 0 to 1</source>
        <translation>刻度 0 到 1</translation>
    </message>
    <message>
        <source>Colour both maps on the absolute scale 0 to 1; otherwise both share 0 to the larger of their largest weights.</source>
        <translation>两张图都按 0 到 1 的绝对刻度着色；否则两张图共用一个刻度，从 0 到两者最大权重中较大的那个。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model A&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型 A&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model B&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型 B&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Current model</source>
        <translation>当前模型</translation>
    </message>
    <message>
        <source>Model file…</source>
        <translation>模型文件…</translation>
    </message>
    <message>
        <source>Show the model being trained in this window, or a saved model file (.safetensors).</source>
        <translation>显示本窗口中正在训练的模型，或一个已保存的模型文件（.safetensors）。</translation>
    </message>
    <message>
        <source>Choose two models above, type a sentence and press Enter.</source>
        <translation>在上方选择两个模型，输入一个句子并按回车。</translation>
    </message>
    <message>
        <source>Open Model to Compare</source>
        <translation>打开要对比的模型</translation>
    </message>
    <message>
        <source>AttnLab model (*.safetensors);;All files (*)</source>
        <translation>AttnLab 模型 (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Type a sentence to compare the two models on.</source>
        <translation>请输入一个句子，用来对比两个模型。</translation>
    </message>
    <message>
        <source>There is no current model yet: train one, open one (File ▸ Open Model), or choose a model file for this side.</source>
        <translation>还没有当前模型：请训练一个、打开一个（文件 ▸ 打开模型），或为这一侧选择一个模型文件。</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 · the model of this window</source>
        <translation>%1 · 本窗口的模型</translation>
    </message>
    <message>
        <source>No current model yet: train or open one.</source>
        <translation>还没有当前模型：请训练或打开一个。</translation>
    </message>
    <message>
        <source>A: </source>
        <translation>A：</translation>
    </message>
    <message>
        <source>B: </source>
        <translation>B：</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>正在翻译…</translation>
    </message>
    <message>
        <source>Both maps use one colour scale (0 to %1), so their colours compare directly.</source>
        <translation>两张图使用同一个颜色刻度（0 到 %1），因此颜色可以直接比较。</translation>
    </message>
    <message>
        <source>compare two models on a sentence first</source>
        <translation>请先用一个句子对比两个模型</translation>
    </message>
    <message>
        <source>AttnLab comparison</source>
        <translation>AttnLab 模型对比</translation>
    </message>
    <message>
        <source>Two models on the same sentence, side by side, on one colour scale.</source>
        <translation>两个模型翻译同一个句子，并排显示，使用同一个颜色刻度。</translation>
    </message>
</context>
<context>
    <name>attnlab::CorpusLoader</name>
    <message>
        <source>%1: an unknown error occurred while reading</source>
        <translation>%1：读取时发生未知错误</translation>
    </message>
</context>
<context>
    <name>attnlab::CorpusTableModel</name>
    <message>
        <source>Source</source>
        <translation>源句</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标句</translation>
    </message>
</context>
<context>
    <name>attnlab::CorpusView</name>
    <message>
        <source>Filter pairs, e.g. a word</source>
        <translation>筛选句对，例如输入一个词</translation>
    </message>
    <message>
        <source>Show only the pairs that contain this text on either side.</source>
        <translation>只显示任一侧包含此文本的句对。</translation>
    </message>
    <message>
        <source>Double-click a pair to translate its source sentence.</source>
        <translation>双击一个句对即可翻译其源句。</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>The sentence pairs of the corpus.</source>
        <translation>语料中的句对。</translation>
    </message>
</context>
<context>
    <name>attnlab::DataPanel</name>
    <message>
        <source>copy</source>
        <comment>built-in dataset name</comment>
        <translation>复制（copy）</translation>
    </message>
    <message>
        <source>Random letter sequences; the target repeats the source.</source>
        <translation>随机字母序列；目标与源完全相同。</translation>
    </message>
    <message>
        <source>reverse</source>
        <comment>built-in dataset name</comment>
        <translation>反转（reverse）</translation>
    </message>
    <message>
        <source>Random letter sequences; the target is the source reversed.</source>
        <translation>随机字母序列；目标是源的倒序。</translation>
    </message>
    <message>
        <source>sort</source>
        <comment>built-in dataset name</comment>
        <translation>排序（sort）</translation>
    </message>
    <message>
        <source>Random numbers from 0 to 49; the target lists them in ascending order.</source>
        <translation>0 到 49 之间的随机数；目标按升序列出这些数。</translation>
    </message>
    <message>
        <source>dates</source>
        <comment>built-in dataset name</comment>
        <translation>日期（dates）</translation>
    </message>
    <message>
        <source>Dates in a dozen human formats; the target is the ISO date (yyyy - mm - dd).</source>
        <translation>十几种日常写法的日期；目标是 ISO 格式的日期（yyyy - mm - dd）。</translation>
    </message>
    <message>
        <source>toy-en-fr</source>
        <comment>built-in dataset name</comment>
        <translation>英译法玩具语法（toy-en-fr）</translation>
    </message>
    <message>
        <source>A toy English to French grammar where adjectives follow their noun.</source>
        <translation>一个英译法的玩具语法，法语中形容词位于名词之后。</translation>
    </message>
    <message>
        <source>toy-en-zh</source>
        <comment>built-in dataset name</comment>
        <translation>英译中玩具语法（toy-en-zh）</translation>
    </message>
    <message>
        <source>A toy English to Chinese grammar where time and place move before the verb.</source>
        <translation>一个英译中的玩具语法，中文里时间和地点移到动词之前。</translation>
    </message>
    <message>
        <source>Built-in dataset</source>
        <translation>内置数据集</translation>
    </message>
    <message>
        <source>A generated task with known word alignments: no download, same pairs for the same seed.</source>
        <translation>自动生成、词对齐已知的任务：无需下载，相同种子生成相同的句对。</translation>
    </message>
    <message>
        <source>How many sentence pairs to generate; more pairs train better but slower.</source>
        <translation>要生成的句对数量；句对越多训练效果越好，但也越慢。</translation>
    </message>
    <message>
        <source>The random seed of the generator: the same seed gives the same pairs.</source>
        <translation>生成器的随机种子：相同种子生成相同的句对。</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>The longest generated source sentence; long sentences show the bottleneck of a model without attention.</source>
        <translation>生成的源句子的最大长度；长句子能体现没有注意力的模型的瓶颈。</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Generate this dataset and make it the corpus for the next training run.</source>
        <translation>生成该数据集，并将其作为下一次训练的语料。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Pairs:</source>
        <translation>句对数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Max length:</source>
        <translation>最大长度：</translation>
    </message>
    <message>
        <source>Your own corpus</source>
        <translation>自己的语料</translation>
    </message>
    <message>
        <source>Open TSV File…</source>
        <translation>打开 TSV 文件…</translation>
    </message>
    <message>
        <source>A UTF-8 file with one pair per line: source, a tab, target (as Tatoeba exports).</source>
        <translation>UTF-8 编码的文件，每行一个句对：源句、制表符、目标句（即 Tatoeba 导出的格式）。</translation>
    </message>
    <message>
        <source>Open Two Aligned Files…</source>
        <translation>打开两个对齐文件…</translation>
    </message>
    <message>
        <source>Two UTF-8 files with one sentence per line, e.g. train.en and train.fr.</source>
        <translation>两个 UTF-8 编码的文件，每行一个句子，例如 train.en 和 train.fr。</translation>
    </message>
    <message>
        <source>Or drop a file on the window.</source>
        <translation>也可以把文件拖放到窗口上。</translation>
    </message>
    <message>
        <source>Current corpus</source>
        <translation>当前语料</translation>
    </message>
    <message>
        <source>None loaded</source>
        <translation>尚未加载</translation>
    </message>
    <message>
        <source>Lines that were not used, e.g. with an empty side.</source>
        <translation>未被使用的行，例如某一侧为空的行。</translation>
    </message>
    <message>
        <source>Distinct source tokens in the whole corpus.</source>
        <translation>整个语料中不同源词元的数量。</translation>
    </message>
    <message>
        <source>Distinct target tokens in the whole corpus.</source>
        <translation>整个语料中不同目标词元的数量。</translation>
    </message>
    <message>
        <source>Mean and longest sentence length in tokens, source / target.</source>
        <translation>句子的平均长度和最大长度（以词元计），源 / 目标。</translation>
    </message>
    <message>
        <source>Skipped lines:</source>
        <translation>跳过的行：</translation>
    </message>
    <message>
        <source>Source words:</source>
        <translation>源端词表：</translation>
    </message>
    <message>
        <source>Target words:</source>
        <translation>目标端词表：</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>%1 (built-in, seed %2)</source>
        <translation>%1（内置，种子 %2）</translation>
    </message>
    <message>
        <source>%1 / %2 (longest %3 / %4)</source>
        <translation>%1 / %2（最长 %3 / %4）</translation>
    </message>
    <message>
        <source>First skipped line %1: %2</source>
        <translation>第一个跳过的行 %1：%2</translation>
    </message>
    <message>
        <source>Split CJK text into characters</source>
        <translation>将中日韩文字拆分为单字</translation>
    </message>
    <message>
        <source>On, every Chinese, Japanese or Korean character is a token: this works for text written without spaces between words. Off, words separated by spaces stay whole, so each attention row is a word (toy-en-zh is written that way). Changing it counts the corpus again; the next training run uses it.</source>
        <translation>开启时，每个中文、日文或韩文字符都是一个词元：适用于词与词之间没有空格的文本。关闭时，以空格分隔的词保持完整，因此每一行注意力对应一个词（toy-en-zh 就是这样书写的）。更改后会重新统计语料；下一次训练将使用新的设置。</translation>
    </message>
    <message>
        <source>Gold word links of the corpus: with them, training measures how often the attention points at the right word (AER on the Curves view).</source>
        <translation>语料的标准词对齐：有了它，训练时会测量注意力指向正确词语的频率（曲线视图中的 AER）。</translation>
    </message>
    <message>
        <source>Add Word Alignments…</source>
        <translation>添加词对齐…</translation>
    </message>
    <message>
        <source>A Pharaoh file for this corpus, as fast_align and GIZA++ write it: one line per corpus line, links &quot;i-j&quot; (sure) or &quot;i?j&quot; (possible) between space-separated words counted from 0.</source>
        <translation>本语料的 Pharaoh 文件（fast_align 与 GIZA++ 的格式）：每个语料行一行，链接写作 &quot;i-j&quot;（确定）或 &quot;i?j&quot;（可能），词以空格分隔、从 0 开始计数。</translation>
    </message>
    <message>
        <source>Word links:</source>
        <translation>词对齐：</translation>
    </message>
    <message>
        <source>Add Word Alignments</source>
        <translation>添加词对齐</translation>
    </message>
    <message>
        <source>Pharaoh alignments (*.align *.txt *.a);;All files (*)</source>
        <translation>Pharaoh 对齐文件 (*.align *.txt *.a);;所有文件 (*)</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>attnlab::DecodingView</name>
    <message>
        <source>Type a sentence and press Enter to watch it being decoded</source>
        <translation>输入一个句子并按回车，观看它被逐步解码</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Decode the sentence with the current model and the method chosen (Enter).</source>
        <translation>用当前模型和所选方法解码该句子（回车）。</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>Greedy takes the most probable token at each step; sampling draws one from the distribution; beam search keeps the best few partial translations.</source>
        <translation>贪心在每一步取概率最高的词元；采样从分布中抽取一个；束搜索保留最好的几个部分译文。</translation>
    </message>
    <message>
        <source>Decoding method</source>
        <translation>解码方法</translation>
    </message>
    <message>
        <source>Divides the scores before the softmax: below 1 sharpens the distribution (towards greedy), above 1 flattens it.</source>
        <translation>在 softmax 之前用它去除分数：小于 1 使分布更尖锐（趋向贪心），大于 1 使其更平坦。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Keep only the k most probable tokens (off: no top-k cut).</source>
        <translation>只保留概率最高的 k 个词元（关闭：不做 top-k 截断）。</translation>
    </message>
    <message>
        <source>Nucleus sampling: keep the smallest set of most probable tokens whose probability reaches p (1: no cut).</source>
        <translation>核采样：保留概率之和达到 p 的最小一组高概率词元（1：不截断）。</translation>
    </message>
    <message>
        <source>The first sample&apos;s seed; the others use the next seeds. The same seed draws the same sample.</source>
        <translation>第一个样本的随机种子；其余样本依次使用后面的种子。相同的种子抽出相同的样本。</translation>
    </message>
    <message>
        <source>Samples side by side, each with its own seed.</source>
        <translation>并排显示的样本数，每个样本有自己的种子。</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation>样本数：</translation>
    </message>
    <message>
        <source>How many partial translations each step keeps.</source>
        <translation>每一步保留多少个部分译文。</translation>
    </message>
    <message>
        <source>Beam width:</source>
        <translation>束宽：</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Decoding step</source>
        <translation>解码步</translation>
    </message>
    <message>
        <source>Key/value cache (the first sample)</source>
        <translation>键/值缓存（第一个样本）</translation>
    </message>
    <message>
        <source>Cache layer</source>
        <translation>缓存层</translation>
    </message>
    <message>
        <source>Cache head</source>
        <translation>缓存头</translation>
    </message>
    <message>
        <source>Decoder layer:</source>
        <translation>解码器层：</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Train a model or open one, type a sentence and press Decode to watch each step choose its token.</source>
        <translation>训练或打开一个模型，输入一个句子并按“解码”，观看每一步如何选出它的词元。</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>How a translation is chosen step by step: greedy, sampling with temperature, top-k and top-p, beam search as a tree, and the Transformer&apos;s key/value cache.</source>
        <translation>译文如何一步步选出：贪心、带温度、top-k 和 top-p 的采样、以树形显示的束搜索，以及 Transformer 的键/值缓存。</translation>
    </message>
    <message>
        <source>The model changed: press Decode to decode with it.</source>
        <translation>模型已更改：按“解码”用新模型解码。</translation>
    </message>
    <message>
        <source>Type a sentence to decode.</source>
        <translation>请输入要解码的句子。</translation>
    </message>
    <message>
        <source>There is no model yet: start training or open a model (File ▸ Open Model).</source>
        <translation>还没有模型：请开始训练或打开一个模型（文件 ▸ 打开模型）。</translation>
    </message>
    <message>
        <source>Decoding…</source>
        <translation>正在解码…</translation>
    </message>
    <message>
        <source>The sentence could not be decoded: %1</source>
        <translation>无法解码该句子：%1</translation>
    </message>
    <message>
        <source>Beam width %1: %2 hypotheses kept over %3 steps, %4 of them ended with &lt;/s&gt;. Finished hypotheses compete by their log-probability per token. Click a box to see its attention.</source>
        <translation>束宽 %1：%3 步中共保留了 %2 个假设，其中 %4 个以 &lt;/s&gt; 结束。已结束的假设按每个词元的平均对数概率比较。点击一个方框可查看它的注意力。</translation>
    </message>
    <message>
        <source>Greedy: every step keeps only the most probable token. Step through the translation with the arrows or the slider.</source>
        <translation>贪心：每一步只保留概率最高的词元。用箭头或滑块逐步查看译文。</translation>
    </message>
    <message>
        <source>Each sample draws from the same distributions with its own seed; the cut (top-k, then top-p) decides which tokens may be drawn.</source>
        <translation>每个样本用自己的种子从同样的分布中抽取；截断（先 top-k，后 top-p）决定哪些词元可能被抽中。</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Sample %1 · seed %2</source>
        <translation>样本 %1 · 种子 %2</translation>
    </message>
    <message>
        <source>No steps.</source>
        <translation>没有步骤。</translation>
    </message>
    <message>
        <source>Step %1: “%2” (%3)</source>
        <translation>第 %1 步：“%2”（%3）</translation>
    </message>
    <message>
        <source>Ended at step %1</source>
        <translation>在第 %1 步结束</translation>
    </message>
    <message>
        <source>The attention this step used over the source:</source>
        <translation>这一步在源句上使用的注意力：</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>The step that ends the sentence keeps no attention row.</source>
        <translation>结束句子的那一步不保留注意力行。</translation>
    </message>
    <message>
        <source>Step %1 attends %2 cached keys. This step: &lt;b&gt;%3&lt;/b&gt; multiply-adds with the cache, &lt;b&gt;%4&lt;/b&gt; without (every earlier position recomputed in every layer), %5×. Steps 1–%1: %6 against %7 (%8×). The source&apos;s keys and values are computed once: %9.</source>
        <translation>第 %1 步关注 %2 个已缓存的键。这一步：使用缓存 &lt;b&gt;%3&lt;/b&gt; 次乘加，不用缓存 &lt;b&gt;%4&lt;/b&gt; 次（每一层都重新计算之前的每个位置），%5×。第 1–%1 步合计：%6 对 %7（%8×）。源句的键和值只计算一次：%9。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · step %2 · p(token) %3 · log-probability %4%5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · 第 %2 步 · p(词元) %3 · 对数概率 %4%5</translation>
    </message>
    <message>
        <source> · the translation returned</source>
        <translation> · 返回的译文</translation>
    </message>
    <message>
        <source>Decoding: %1</source>
        <translation>解码：%1</translation>
    </message>
    <message>
        <source>there is no decoding to export yet: press Decode first</source>
        <translation>还没有可导出的解码：请先按“解码”</translation>
    </message>
    <message>
        <source>the decoding lab exports pictures (PNG, SVG or PDF), not matrices</source>
        <translation>解码实验导出的是图片（PNG、SVG 或 PDF），不是矩阵</translation>
    </message>
</context>
<context>
    <name>attnlab::DiagnosticsView</name>
    <message>
        <source>Latest translation or probe</source>
        <translation>最近的翻译或探针</translation>
    </message>
    <message>
        <source>Translate view</source>
        <translation>“翻译”视图</translation>
    </message>
    <message>
        <source>Live probe</source>
        <translation>实时探针</translation>
    </message>
    <message>
        <source>Which sentence&apos;s attention to diagnose: the one translated in the Translate view, the probe re-translated while training runs, or whichever changed last.</source>
        <translation>要诊断哪个句子的注意力：在“翻译”视图中翻译的句子、训练期间反复重新翻译的探针句子，或两者中最近更新的那一个。</translation>
    </message>
    <message>
        <source>Diagnose:</source>
        <translation>诊断对象：</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Diagonality</source>
        <translation>对角性</translation>
    </message>
    <message>
        <source>Sink</source>
        <translation>汇聚</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>Cross-attention (decoder → encoder), or the encoder&apos;s or decoder&apos;s self-attention.</source>
        <translation>交叉注意力（解码器 → 编码器），或编码器、解码器的自注意力。</translation>
    </message>
    <message>
        <source>0-based, as in the Heads view; “all” is the summary of every layer.</source>
        <translation>从 0 开始编号，与“注意力头”视图一致；“全部”表示所有层的汇总。</translation>
    </message>
    <message>
        <source>0-based; the summary averages the heads.</source>
        <translation>从 0 开始编号；汇总行是各注意力头的平均。</translation>
    </message>
    <message>
        <source>How spread out each output token&apos;s attention is: 0 = one source token, 1 = evenly over all. Mean over rows of H(row) / ln(columns). Warn at ≥ %1.</source>
        <translation>每个输出词元的注意力有多分散：0 = 只关注一个源词元，1 = 平均分布在所有词元上。计算方法：每行的熵 H(row) 除以 ln(列数)，再对各行取平均。≥ %1 时发出警示。</translation>
    </message>
    <message>
        <source>Share of each row&apos;s attention within ±w tokens of the diagonal stretched from the first to the last token (w = max(1, tokens / 10)): 1 = monotonic alignment. Judged for cross-attention only; warn below %1.</source>
        <translation>每行注意力中落在对角线 ±w 个词元以内的比例（对角线从第一个词元拉伸到最后一个词元，w = max(1, 词元数 / 10)）：1 = 单调对齐。仅对交叉注意力进行判断；低于 %1 时发出警示。</translation>
    </message>
    <message>
        <source>Share of attention on &lt;s&gt;, &lt;/s&gt; and punctuation, where heads with nothing to do park it. Warn at ≥ %1.</source>
        <translation>落在 &lt;s&gt;、&lt;/s&gt; 和标点上的注意力比例：无事可做的注意力头会把注意力“停放”在这些位置。≥ %1 时发出警示。</translation>
    </message>
    <message>
        <source>Source tokens that received less than %1 attention summed over all output steps (&lt;/s&gt; not counted). Judged for cross-attention only.</source>
        <translation>在所有输出步上累计获得的注意力少于 %1 的源词元（不计 &lt;/s&gt;）。仅对交叉注意力进行判断。</translation>
    </message>
    <message>
        <source>cross</source>
        <comment>attention kind</comment>
        <translation>交叉</translation>
    </message>
    <message>
        <source>encoder</source>
        <comment>attention kind</comment>
        <translation>编码器</translation>
    </message>
    <message>
        <source>decoder</source>
        <comment>attention kind</comment>
        <translation>解码器</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Live probe (model opened from a file)</source>
        <translation>实时探针（从文件打开的模型）</translation>
    </message>
    <message>
        <source>Live probe after %1 batches, %2 epochs</source>
        <translation>实时探针（已训练 %1 个批次，%2 轮）</translation>
    </message>
    <message>
        <source>Start training: the probe sentence is diagnosed each time it is translated.</source>
        <translation>开始训练吧：每次翻译探针句子时，都会在这里对它进行诊断。</translation>
    </message>
    <message>
        <source>Translate a sentence (Translate view) or start training to watch the probe: its attention is diagnosed here, head by head.</source>
        <translation>翻译一个句子（“翻译”视图），或开始训练以观察探针句子：它的注意力会在这里逐个注意力头地接受诊断。</translation>
    </message>
    <message>
        <source>The model ended the output at once: there is no attention to diagnose yet. Train it a little longer.</source>
        <translation>模型一开始就结束了输出：暂时没有可诊断的注意力。请再多训练一会儿。</translation>
    </message>
    <message>
        <source>This model has no attention: its decoder sees the whole sentence as one fixed vector, so there is nothing to diagnose. Choose an attention variant.</source>
        <translation>这个模型没有注意力：它的解码器把整个句子看作一个固定向量，因此没有可诊断的内容。请选择一种注意力变体。</translation>
    </message>
    <message>
        <source>Within the expected range.</source>
        <translation>在预期范围内。</translation>
    </message>
    <message>
        <source>Not judged for self-attention.</source>
        <translation>不对自注意力进行判断。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>mean of %1</source>
        <translation>%1 个的平均</translation>
    </message>
    <message>
        <source>no attention</source>
        <translation>无注意力</translation>
    </message>
    <message>
        <source>all %1 attended</source>
        <translation>全部 %1 个均被关注</translation>
    </message>
    <message>
        <source>%1 of %2 unattended: %3</source>
        <translation>%2 个中有 %1 个未被关注：%3</translation>
    </message>
    <message>
        <source>%1: mean of all %2 heads</source>
        <translation>%1：全部 %2 个注意力头的平均</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3</source>
        <translation>%1，第 %2 层，注意力头 %3</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>decoder input</source>
        <translation>解码器输入</translation>
    </message>
    <message>
        <source>no flags</source>
        <translation>无警示</translation>
    </message>
    <message>
        <source>%1 (mean of %2 heads)</source>
        <translation>%1（%2 个注意力头的平均）</translation>
    </message>
    <message>
        <source>entropy %1 · diagonality %2 · sink %3 · %4 of %5 tokens attended</source>
        <translation>熵 %1 · 对角性 %2 · 汇聚 %3 · %5 个词元中有 %4 个被关注</translation>
    </message>
    <message>
        <source>No flags raised.</source>
        <translation>没有发出任何警示。</translation>
    </message>
    <message>
        <source>Each output token looks at a few source tokens, roughly in order, and every source word is attended to. That is what a model that has learnt the alignment looks like. Hover a column header for how each number is computed.</source>
        <translation>每个输出词元都只关注少数几个源词元，而且大致按顺序进行，每个源词也都得到了关注。这正是学会了对齐的模型应有的样子。将鼠标悬停在列标题上，可查看每个数值的计算方法。</translation>
    </message>
    <message>
        <source>What the flags mean</source>
        <translation>各项警示的含义</translation>
    </message>
    <message>
        <source>all heads</source>
        <translation>所有注意力头</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>层 %1 头 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>What to try:</source>
        <translation>可以尝试：</translation>
    </message>
    <message>
        <source>Raised by:</source>
        <translation>触发位置：</translation>
    </message>
    <message>
        <source>Dispersed cross-attention</source>
        <translation>交叉注意力过于分散</translation>
    </message>
    <message>
        <source>Broad self-attention heads</source>
        <translation>自注意力头关注范围过宽</translation>
    </message>
    <message>
        <source>Attention parked on &lt;/s&gt; or punctuation</source>
        <translation>注意力停放在 &lt;/s&gt; 或标点上</translation>
    </message>
    <message>
        <source>Heads resting on &lt;/s&gt;, &lt;s&gt; or punctuation</source>
        <translation>注意力头停靠在 &lt;/s&gt;、&lt;s&gt; 或标点上</translation>
    </message>
    <message>
        <source>Sharp but off the diagonal: reordering</source>
        <translation>集中但偏离对角线：语序调整</translation>
    </message>
    <message>
        <source>Off the diagonal and spread out</source>
        <translation>偏离对角线且分散</translation>
    </message>
    <message>
        <source>Source tokens nobody looked at</source>
        <translation>没有被关注的源词元</translation>
    </message>
    <message>
        <source>Most output tokens spread their attention over much of the sentence instead of looking at the word they translate (entropy %1 or more). Early in training this is normal: attention starts out nearly even and sharpens as the model learns which source word goes with which output word.</source>
        <translation>大多数输出词元把注意力分散到句子的大部分位置，而不是集中在它们所翻译的词上（熵达到 %1 或更高）。这在训练初期是正常的：注意力一开始几乎是均匀分布的，随着模型学会哪个源词对应哪个输出词，注意力会逐渐变得集中。</translation>
    </message>
    <message>
        <source>Some self-attention heads average over the whole sequence (entropy %1 or more). A few such heads are normal: they gather sentence-wide context. If most heads are broad, they have not specialised yet.</source>
        <translation>有些自注意力头对整个序列取平均（熵达到 %1 或更高）。少数这样的注意力头是正常的：它们负责汇集全句的上下文。如果大多数注意力头的关注范围都很宽，说明它们还没有形成各自的分工。</translation>
    </message>
    <message>
        <source>The decoder puts much of its attention (%1 or more) on the end-of-sentence token or on punctuation instead of the words it translates. The encoder&apos;s last state already sums up the whole sentence, so the decoder can get by without aligning: the bottleneck attention was meant to remove.</source>
        <translation>解码器把大量注意力（%1 或更多）放在句末标记或标点上，而不是放在它所翻译的词上。编码器的最后一个状态已经概括了整个句子，所以解码器不做对齐也能勉强应付——而这恰恰是注意力本应消除的瓶颈。</translation>
    </message>
    <message>
        <source>Heads with nothing useful to look at put their attention (%1 or more) on &lt;/s&gt;, &lt;s&gt; or punctuation: a “no-op” that leaves each token&apos;s representation almost unchanged. Trained Transformers do this in a few heads routinely.</source>
        <translation>没有有用信息可关注的注意力头会把注意力（%1 或更多）放在 &lt;/s&gt;、&lt;s&gt; 或标点上：这是一种“空操作”，几乎不改变每个词元的表示。训练好的 Transformer 中通常都有少数注意力头这样做。</translation>
    </message>
    <message>
        <source>Each output token looks at one source token, but not in source order (diagonality below %1). That is a change of word order: expected for the reverse and sort datasets, and where adjectives and nouns swap places (English → French).</source>
        <translation>每个输出词元都集中关注一个源词元，但顺序与源句不同（对角性低于 %1）。这说明语序发生了变化：对于反转（reverse）和排序（sort）数据集，以及形容词与名词互换位置的情况（英语 → 法语），这是意料之中的。</translation>
    </message>
    <message>
        <source>Attention follows neither the source order nor a sharp pattern (diagonality below %1, attention broad or parked on &lt;/s&gt;). Look at the map: if each output row still has one clearly brightest source token, the word order changes and attention is merely spread around it (Transformer heads often share the work this way; the mean of the heads is sharper). If the rows are flat, the model has not yet found which source word goes with which output word.</source>
        <translation>注意力既不遵循源句的顺序，也没有形成清晰的模式（对角性低于 %1，注意力分散或停放在 &lt;/s&gt; 上）。请看注意力图：如果每个输出行仍有一个明显最亮的源词元，说明只是语序发生了变化，注意力散布在该词元周围（Transformer 的注意力头常以这种方式分工，各注意力头的平均会更集中）。如果各行都很平坦，说明模型还没有找到哪个源词对应哪个输出词。</translation>
    </message>
    <message>
        <source>These source tokens received less than %1 attention in total, over all output steps: %2. Either they have no counterpart in the target (an article like “the” has none in Chinese) or the model skipped them: compare the output with the input for a missing word (under-translation).</source>
        <translation>以下源词元在所有输出步上累计获得的注意力不到 %1：%2。原因可能是它们在目标语言中没有对应的词（例如冠词“the”在中文里就没有对应词），也可能是模型跳过了它们：请对照输入检查输出中是否漏掉了词（漏译）。</translation>
    </message>
    <message>
        <source>Train longer first. If the loss falls slowly, raise the learning rate a little (e.g. 0.001 → 0.003); if it jumps around, lower it. If the loss stays high, give the model more room (a larger hidden size). Dropout is also applied to the attention weights: a high dropout teaches the decoder to hedge, so try 0.1 or less.</source>
        <translation>首先多训练一会儿。如果损失下降缓慢，可以稍微提高学习率（例如 0.001 → 0.003）；如果损失上下跳动，就降低学习率。如果损失一直居高不下，就给模型更大的容量（更大的隐藏层大小）。Dropout 也会作用在注意力权重上：丢弃率过高会让解码器学会“两头下注”，请尝试 0.1 或更低的值。</translation>
    </message>
    <message>
        <source>Train longer. If most heads stay broad, the model may have more heads than the task needs: try fewer heads, or a lower learning rate if the loss is unstable.</source>
        <translation>多训练一会儿。如果大多数注意力头的关注范围一直很宽，可能是模型的注意力头比任务所需的多：请尝试减少注意力头数；如果损失不稳定，可以降低学习率。</translation>
    </message>
    <message>
        <source>Train longer. A bidirectional GRU encoder gives every word&apos;s state the context on both sides, so aligning pays off sooner. Lower the learning rate if the loss is unstable, and keep dropout on the attention weights low.</source>
        <translation>多训练一会儿。双向 GRU 编码器让每个词的状态都包含两侧的上下文，因此对齐能更早见效。如果损失不稳定，请降低学习率，并让注意力权重上的丢弃率保持在较低水平。</translation>
    </message>
    <message>
        <source>Nothing to fix if only a few heads do it. If most heads do, the model is larger than the task needs: fewer heads or a smaller d_model train faster and do as well.</source>
        <translation>如果只有少数注意力头这样做，则无需处理。如果大多数注意力头都这样，说明模型比任务所需的更大：减少注意力头数或减小 d_model，训练更快，效果也一样好。</translation>
    </message>
    <message>
        <source>If the output is right, nothing to fix. A GRU with attention handles local swaps; for heavy, long-range reordering a Transformer usually learns faster. If the output is wrong, train longer.</source>
        <translation>如果输出正确，就无需处理。带注意力的 GRU 能应对局部的词序交换；对于幅度大、距离远的语序调整，Transformer 通常学得更快。如果输出有误，请多训练一会儿。</translation>
    </message>
    <message>
        <source>If the rows are flat: train longer and check the learning rate (too high: the loss jumps; too low: it barely moves); a larger hidden size helps if the loss stays high. If the task reorders words heavily, try a Transformer.</source>
        <translation>如果各行都很平坦：多训练一会儿，并检查学习率（过高：损失上下跳动；过低：损失几乎不动）；如果损失一直居高不下，增大隐藏层大小会有帮助。如果任务需要大幅调整语序，请尝试 Transformer。</translation>
    </message>
    <message>
        <source>If a content word is missing from the output: train longer, try a larger model, or less dropout. Function words without a counterpart in the target are fine.</source>
        <translation>如果输出中漏掉了实词：请多训练一会儿、尝试更大的模型，或降低丢弃率。在目标语言中没有对应词的虚词被忽略是正常的。</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Rows differ</source>
        <translation>行间差异</translation>
    </message>
    <message>
        <source>How much the rows differ: the mean distance (total variation) of each output token&apos;s attention from the rows&apos; mean, 0 = every row the same. Judged for cross-attention with 3 or more rows and tokens; warn below %1.</source>
        <translation>各行之间的差异：每个输出词的注意力与各行平均值之间的平均距离（总变差），0 = 每一行都相同。仅对至少 3 行、3 个词的交叉注意力进行判断；低于 %1 时警告。</translation>
    </message>
    <message>
        <source>The same map for every output step</source>
        <translation>每个输出步骤都是同一张图</translation>
    </message>
    <message>
        <source>Every output token attends to the source in nearly the same way (rows differ by less than %1): the decoder is not using attention to move through the source. It reads one fixed mixture of the source at every step, which is the fixed-vector bottleneck attention was meant to remove. Early in training, with attention still even, this is normal; after training it means attention carries nothing step by step.</source>
        <translation>每个输出词对源句的注意力几乎相同（行间差异小于 %1）：解码器没有利用注意力在源句中移动。它在每一步读取的都是源句的同一个固定混合，这正是注意力本来要消除的固定向量瓶颈。训练初期注意力还很均匀，这是正常的；训练之后仍然如此，说明注意力没有逐步传递任何信息。</translation>
    </message>
    <message>
        <source>Is attention healthy? Entropy, diagonality, sinks, how much the rows differ and coverage per head, with what to try.</source>
        <translation>注意力健康吗？每个注意力头的熵、对角性、汇聚、行间差异和覆盖率，以及可以尝试的做法。</translation>
    </message>
    <message>
        <source>Train longer first. If it stays after training, the decoder gets by on the encoder&apos;s summary: a bidirectional encoder, a slightly higher learning rate or less dropout on the attention weights help attention sharpen and move with the output.</source>
        <translation>先训练更长时间。如果训练后仍然如此，说明解码器靠编码器的摘要就能应付：双向编码器、稍高的学习率或在注意力权重上使用更少的 dropout，有助于注意力变得更集中并随输出移动。</translation>
    </message>
</context>
<context>
    <name>attnlab::ExperimentRunner</name>
    <message>
        <source>choose at least one attention</source>
        <translation>请至少选择一种注意力</translation>
    </message>
    <message>
        <source>epochs must be at least 1</source>
        <translation>轮数至少为 1</translation>
    </message>
    <message>
        <source>the experiment failed with an unknown error</source>
        <translation>实验因未知错误而失败</translation>
    </message>
    <message>
        <source>the complexity lab needs at least one length and one repeat</source>
        <translation>复杂度实验至少需要一个长度和一次重复</translation>
    </message>
    <message>
        <source>N = %1: measurement %2 of %3</source>
        <translation>N = %1：第 %2/%3 次测量</translation>
    </message>
    <message>
        <source>give at least one text length</source>
        <translation>请至少给出一个文本长度</translation>
    </message>
    <message>
        <source>choose at least one pooling</source>
        <translation>请至少选择一种池化方式</translation>
    </message>
    <message>
        <source>training %1 at %2 words (%3 of %4)</source>
        <translation>正在训练 %1，长度 %2 个词（第 %3/%4 个）</translation>
    </message>
    <message>
        <source>give at least one length</source>
        <translation>至少给出一个长度</translation>
    </message>
    <message>
        <source>choose at least one pattern</source>
        <translation>至少选择一种模式</translation>
    </message>
    <message>
        <source>Training %1 at N = %2</source>
        <translation>正在训练 %1，N = %2</translation>
    </message>
    <message>
        <source>choose at least one model</source>
        <translation>至少选择一个模型</translation>
    </message>
</context>
<context>
    <name>attnlab::ExperimentsView</name>
    <message>
        <source>Bottleneck</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Complexity</source>
        <translation>复杂度</translation>
    </message>
    <message>
        <source>Why attention: a fixed context vector against attention as sentences grow.</source>
        <translation>为什么需要注意力：随着句子变长，对比固定上下文向量与注意力。</translation>
    </message>
    <message>
        <source>What attention costs: full, local and linear attention as the sequence grows.</source>
        <translation>注意力的代价：随着序列变长，对比全注意力、局部注意力和线性注意力。</translation>
    </message>
    <message>
        <source>Press Run: each model is trained in turn, and its point appears when its training ends.</source>
        <translation>请按“运行”：各个模型依次训练，每个模型训练结束后，图中就会出现它的数据点。</translation>
    </message>
    <message>
        <source>Press Run: each length is timed in turn, shortest first (a few seconds with the defaults).</source>
        <translation>请按“运行”：从最短的开始，依次对每个长度计时（使用默认设置只需几秒）。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Classroom (quick)</source>
        <translation>课堂（快速）</translation>
    </message>
    <message>
        <source>Full (as attnlab-cli)</source>
        <translation>完整（同 attnlab-cli）</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Classroom: shorter sentences, fewer pairs and epochs, about two CPU-minutes. Full: the command line&apos;s defaults, about ten CPU-minutes, clearer curves.</source>
        <translation>课堂：句子更短，句对和轮数更少，约需 2 分钟 CPU 时间。完整：使用命令行工具的默认设置，约需 10 分钟 CPU 时间，曲线更清晰。</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>The task; copy is the clearest: the output must repeat every token.</source>
        <translation>任务；复制（copy）最直观：输出必须重复每一个词元。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Sentence lengths in tokens; each gets its own corpus and its own models.</source>
        <translation>句子长度（以词元计）；每个长度都有各自的语料和模型。</translation>
    </message>
    <message>
        <source>Lengths:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>No attention: the decoder sees only the encoder&apos;s final state, one fixed vector.</source>
        <translation>无注意力：解码器只能看到编码器的最终状态，即一个固定向量。</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Sentence pairs generated per length; 10% are held out for the accuracy.</source>
        <translation>每个长度生成的句对数；其中 10% 留出，用于计算准确率。</translation>
    </message>
    <message>
        <source>Pairs per length:</source>
        <translation>每个长度的句对数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Train every model at every length and plot its held-out accuracy (stops a running complexity measurement)</source>
        <translation>在每个长度上训练每个模型，并绘制其留出集准确率（会停止正在进行的复杂度测量）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Held-out token accuracy against sentence length</source>
        <translation>留出集词元准确率随句子长度的变化</translation>
    </message>
    <message>
        <source>sentence length (tokens)</source>
        <translation>句子长度（词元）</translation>
    </message>
    <message>
        <source>held-out token accuracy</source>
        <translation>留出集词元准确率</translation>
    </message>
    <message>
        <source>Held-out token accuracy: the share of output positions the greedy translation gets right, on pairs the model never trained on.</source>
        <translation>留出集词元准确率：在模型从未训练过的句对上，贪心翻译结果中正确的输出位置所占的比例。</translation>
    </message>
    <message>
        <source>&lt;b&gt;What to look for.&lt;/b&gt; Without attention (&lt;i&gt;none&lt;/i&gt;) the decoder sees the sentence only through the encoder&apos;s final state, one vector of fixed size: the longer the sentence, the less of it that vector can hold, and accuracy falls as sentences grow. With attention the decoder looks back at every source token at every step, so its accuracy holds up: the gap between the lines widens to the right.</source>
        <translation>&lt;b&gt;观察要点。&lt;/b&gt;没有注意力时（&lt;i&gt;无&lt;/i&gt;），解码器只能通过编码器的最终状态——一个大小固定的向量——来了解句子：句子越长，这个向量能容纳的信息就越少，因此准确率随句子变长而下降。有了注意力，解码器在每一步都能回看每个源词元，所以准确率能够保持：两条曲线之间的差距越往右越大。</translation>
    </message>
    <message>
        <source>The shortest sequence; the lengths double up to the longest.</source>
        <translation>最短的序列长度；长度逐次翻倍，直到最长的序列长度。</translation>
    </message>
    <message>
        <source>The longest sequence. Full attention at 16384 needs about 2 GB and seconds per measurement.</source>
        <translation>最长的序列长度。长度为 16384 时，全注意力约需 2 GB 内存，每次测量需要数秒。</translation>
    </message>
    <message>
        <source>From N =</source>
        <translation>起始 N =</translation>
    </message>
    <message>
        <source>To N =</source>
        <translation>终止 N =</translation>
    </message>
    <message>
        <source>The size of each query, key and value vector.</source>
        <translation>每个查询（query）、键（key）和值（value）向量的维度。</translation>
    </message>
    <message>
        <source>Dimension d:</source>
        <translation>维度 d：</translation>
    </message>
    <message>
        <source>Local attention: each query sees the 2w+1 keys around it.</source>
        <translation>局部注意力：每个查询只看它周围的 2w+1 个键。</translation>
    </message>
    <message>
        <source>Window w:</source>
        <translation>窗口 w：</translation>
    </message>
    <message>
        <source>Each time is the fastest of this many measurements: other programs running at the same time can only slow a measurement down.</source>
        <translation>每个时间取这么多次测量中最快的一次：同时运行的其他程序只会让测量变慢，不会让它变快。</translation>
    </message>
    <message>
        <source>Repeats:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Slopes are fitted on N from here up: short sequences measure fixed overheads, not growth.</source>
        <translation>只用从这个 N 开始的长度来拟合斜率：短序列测到的主要是固定开销，而不是增长趋势。</translation>
    </message>
    <message>
        <source>Fit slopes from N =</source>
        <translation>拟合斜率起始 N =</translation>
    </message>
    <message>
        <source>Time the three kinds of attention at every length (stops a running bottleneck experiment)</source>
        <translation>在每个长度上为三种注意力计时（会停止正在进行的瓶颈实验）</translation>
    </message>
    <message>
        <source>sequence length N (log scale)</source>
        <translation>序列长度 N（对数刻度）</translation>
    </message>
    <message>
        <source>Time of one attention layer</source>
        <translation>一个注意力层的耗时</translation>
    </message>
    <message>
        <source>seconds (log scale)</source>
        <translation>秒（对数刻度）</translation>
    </message>
    <message>
        <source>Memory of its intermediate tensors</source>
        <translation>其中间张量占用的内存</translation>
    </message>
    <message>
        <source>MB (log scale)</source>
        <translation>MB（对数刻度）</translation>
    </message>
    <message>
        <source>&lt;b&gt;What to look for.&lt;/b&gt; Full attention scores every token against every other: N² numbers, so doubling N quadruples its time and memory, a line of slope 2 on log-log axes: O(N²). Local attention (each token sees 2w+1 neighbours) and linear attention (φ(Q)·(φ(K)ᵀV), which never forms the N×N matrix) grow in proportion to N: slope 1, O(N). Short sequences mostly measure fixed overheads, so the slopes are fitted on the longer ones.</source>
        <translation>&lt;b&gt;观察要点。&lt;/b&gt;全注意力要为每个词元与其他每个词元打分：共 N² 个数，因此 N 翻倍时，耗时和内存都变为原来的 4 倍，在双对数坐标中是一条斜率为 2 的直线：O(N²)。局部注意力（每个词元只看 2w+1 个邻居）和线性注意力（φ(Q)·(φ(K)ᵀV)，从不构造 N×N 矩阵）则与 N 成正比增长：斜率为 1，即 O(N)。短序列测到的主要是固定开销，所以斜率只在较长的序列上拟合。</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · 约剩 %1</translation>
    </message>
    <message>
        <source>%1 trainings; roughly %2 of one CPU core.</source>
        <translation>共 %1 次训练；单个 CPU 核心约需 %2。</translation>
    </message>
    <message>
        <source>none (fixed context vector)</source>
        <translation>无（固定上下文向量）</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>choose at least one attention to compare</source>
        <translation>请至少选择一种要比较的注意力</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Generating the first corpus and building the models…</source>
        <translation>正在生成第一份语料并构建模型…</translation>
    </message>
    <message>
        <source>Measuring N = %1…</source>
        <translation>正在测量 N = %1…</translation>
    </message>
    <message>
        <source>%1: slope %2</source>
        <translation>%1：斜率 %2</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 trainings; the chart shows the finished ones.</source>
        <translation>已在完成 %2 次训练中的 %1 次后停止；图表显示已完成的结果。</translation>
    </message>
    <message>
        <source>Done in %1. At %2 tokens: %3.</source>
        <translation>完成，用时 %1。长度为 %2 个词元时：%3。</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n length(s).</source>
        <translation>
            <numerusform>已在测量 %n 个长度后停止。</numerusform>
        </translation>
    </message>
    <message>
        <source>Done in %1. Time slopes (N ≥ %2): %3.</source>
        <translation>完成，用时 %1。耗时斜率（N ≥ %2）：%3。</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Bottleneck experiment</source>
        <translation>瓶颈实验</translation>
    </message>
    <message>
        <source>Attention complexity</source>
        <translation>注意力复杂度</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Long range</source>
        <translation>长距离</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>How far each attention pattern reaches: trained on texts whose answer lies far away, until its memory budget runs out.</source>
        <translation>每种注意力模式能覆盖多远：在答案位于远处的文本上训练，直到内存预算耗尽。</translation>
    </message>
    <message>
        <source>Positional encodings: a Transformer with sinusoidal, learned or no positions against a GRU, on a task that needs word order.</source>
        <translation>位置编码：在需要词序的任务上，比较使用正弦、可学习或无位置编码的 Transformer 与 GRU。</translation>
    </message>
    <message>
        <source>Measured experiments: the fixed-context bottleneck, the cost of attention as sequences grow, how far each attention pattern reaches, and what positional encodings are worth.</source>
        <translation>实测实验：固定上下文瓶颈、序列变长时注意力的开销、每种注意力模式能覆盖多远，以及位置编码的价值。</translation>
    </message>
</context>
<context>
    <name>attnlab::ExplainView</name>
    <message>
        <source>A sentence to classify and explain</source>
        <translation>要分类并解释的句子</translation>
    </message>
    <message>
        <source>The class whose score is explained.</source>
        <translation>要解释其得分的类别。</translation>
    </message>
    <message>
        <source>Predicted class</source>
        <translation>预测的类别</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>Classify the text and compare its attention with four attribution methods.</source>
        <translation>对文本进行分类，并把它的注意力与四种归因方法进行比较。</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Each row is scaled to its own largest magnitude: red is for, blue against the class, white nothing. Hover a word for its value.</source>
        <translation>每一行按其自身的最大绝对值缩放：红色表示支持该类别，蓝色表示反对，白色表示没有影响。鼠标悬停在词上可查看其数值。</translation>
    </message>
    <message>
        <source>Integrated gradients are complete: their sum should come close to the class logit of the text minus that of all-zero embeddings.</source>
        <translation>积分梯度满足完备性：其总和应接近该文本的类别 logit 减去全零嵌入的类别 logit。</translation>
    </message>
    <message>
        <source>Agreement with the attention</source>
        <translation>与注意力的一致性</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Kendall τ</source>
        <translation>Kendall τ</translation>
    </message>
    <message>
        <source>Spearman ρ</source>
        <translation>Spearman ρ</translation>
    </message>
    <message>
        <source>Both rank the words by attention and by the method (the gradient methods by magnitude): 1 = the same order, 0 = unrelated, −1 = reversed.</source>
        <translation>两者都分别按注意力和按该方法对词排序（梯度类方法按绝对值大小排序）：1 = 顺序相同，0 = 无关，−1 = 顺序相反。</translation>
    </message>
    <message>
        <source>Attention against:</source>
        <translation>注意力对比：</translation>
    </message>
    <message>
        <source>One dot per word</source>
        <translation>每个点代表一个词</translation>
    </message>
    <message>
        <source>Attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Hover a dot to see its word.</source>
        <translation>鼠标悬停在点上可查看对应的词。</translation>
    </message>
    <message>
        <source>This model has no attention to compare with.</source>
        <translation>这个模型没有可供比较的注意力。</translation>
    </message>
    <message>
        <source>Over the validation set</source>
        <translation>在验证集上</translation>
    </message>
    <message>
        <source>The same comparison for the first validation texts of the corpus: how often attention agrees with the other methods, whether the most attended word is a rationale word, and whether shuffling the attention changes the output.</source>
        <translation>对语料中排在前面的验证文本做同样的比较：注意力与其他方法的一致程度如何，注意力最高的词是否为依据词，以及打乱注意力是否会改变输出。</translation>
    </message>
    <message>
        <source>Permutation Test</source>
        <translation>置换检验</translation>
    </message>
    <message>
        <source>Explain the validation texts, then shuffle each text&apos;s attention and measure how much the output changes.</source>
        <translation>解释各条验证文本，然后打乱每条文本的注意力，测量输出随之改变了多少。</translation>
    </message>
    <message>
        <source>Uniform Baseline</source>
        <translation>均匀基线</translation>
    </message>
    <message>
        <source>The permutation test, and a model of the same kind trained with uniform attention: does learned attention help the accuracy?</source>
        <translation>置换检验，外加一个用均匀注意力训练的同类模型：学到的注意力能提高准确率吗？</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Kendall τ: attention against each method</source>
        <translation>Kendall τ：注意力与各方法的一致性</translation>
    </message>
    <message>
        <source>Kendall τ (bin centre)</source>
        <translation>Kendall τ（区间中心）</translation>
    </message>
    <message>
        <source>Texts</source>
        <translation>文本数</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <source>Integrated gradients</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>Leave one out</source>
        <translation>留一法</translation>
    </message>
    <message>
        <source>Type a text first, then press Explain.</source>
        <translation>请先输入一段文本，然后按“解释”。</translation>
    </message>
    <message>
        <source>Explaining…</source>
        <translation>正在解释…</translation>
    </message>
    <message>
        <source>Cannot explain: %1</source>
        <translation>无法解释：%1</translation>
    </message>
    <message>
        <source>%1 (p = %2)</source>
        <translation>%1（p = %2）</translation>
    </message>
    <message>
        <source>Integrated gradients: sum of attributions %1, logit difference %2 (%3 steps)</source>
        <translation>积分梯度：归因总和 %1，logit 差值 %2（%3 步）</translation>
    </message>
    <message>
        <source>%1: attention %2, %3 %4</source>
        <translation>%1：注意力 %2，%3 %4</translation>
    </message>
    <message>
        <source>Type a text and press Explain to see which words the attention and four attribution methods pick out.</source>
        <translation>输入一段文本并按“解释”，看看注意力和四种归因方法分别挑出了哪些词。</translation>
    </message>
    <message>
        <source>Train or open a classifier first</source>
        <translation>请先训练或打开一个分类器</translation>
    </message>
    <message>
        <source>Explaining the validation texts…</source>
        <translation>正在解释验证文本…</translation>
    </message>
    <message>
        <source>The validation run failed: %1</source>
        <translation>验证运行失败：%1</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <source>%1 validation texts; model accuracy %2</source>
        <translation>%1 条验证文本；模型准确率 %2</translation>
    </message>
    <message>
        <source>%1: mean τ %2, median τ %3, mean ρ %4</source>
        <translation>%1：平均 τ %2，中位数 τ %3，平均 ρ %4</translation>
    </message>
    <message>
        <source>Most attended word is a rationale word: %1 of texts</source>
        <translation>注意力最高的词是依据词：占文本的 %1</translation>
    </message>
    <message>
        <source>Shuffled attention changes the output by %1 (median total variation); %2 of texts change by less than 0.05</source>
        <translation>打乱注意力使输出改变 %1（总变差的中位数）；%2 的文本改变量小于 0.05</translation>
    </message>
    <message>
        <source>Uniform attention, trained the same way: accuracy %1 (the model: %2)</source>
        <translation>以相同方式训练的均匀注意力模型：准确率 %1（本模型：%2）</translation>
    </message>
    <message>
        <source>Is attention an explanation? A classified text&apos;s attention against gradient-based and leave-one-out attributions, for one text and over the validation set.</source>
        <translation>注意力是解释吗？把已分类文本的注意力与基于梯度的归因和留一法归因进行比较，既针对单条文本，也针对整个验证集。</translation>
    </message>
    <message>
        <source>The explanation is exported as PNG, SVG or PDF</source>
        <translation>解释结果只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Explain a text first</source>
        <translation>请先解释一段文本</translation>
    </message>
</context>
<context>
    <name>attnlab::FigureDialog</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>attnlab::FigureExport</name>
    <message>
        <source>there is no heatmap to export in this view yet</source>
        <translation>此视图中还没有可导出的热力图</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export Image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>1× (screen)</source>
        <translation>1×（屏幕）</translation>
    </message>
    <message>
        <source>2× (slides, print)</source>
        <translation>2×（幻灯片、打印）</translation>
    </message>
    <message>
        <source>4× (poster)</source>
        <translation>4×（海报）</translation>
    </message>
    <message>
        <source>PNG Resolution</source>
        <translation>PNG 分辨率</translation>
    </message>
    <message>
        <source>Scale of the image:</source>
        <translation>图像缩放比例：</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>NumPy array (*.npy)</source>
        <translation>NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <source>Export Matrix</source>
        <translation>导出矩阵</translation>
    </message>
</context>
<context>
    <name>attnlab::FigureWriter</name>
    <message>
        <source>unknown file type (use .png, .svg, .pdf, .csv or .npy)</source>
        <translation>未知的文件类型（请使用 .png、.svg、.pdf、.csv 或 .npy）</translation>
    </message>
    <message>
        <source>this figure is saved as .png, .svg or .pdf</source>
        <translation>此图只能保存为 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>nothing to show yet</source>
        <translation>尚无可显示的内容</translation>
    </message>
    <message>
        <source>scale %1 is outside (0, 16]</source>
        <translation>缩放比例 %1 不在 (0, 16] 范围内</translation>
    </message>
    <message>
        <source>an image of %1 pixels is too large</source>
        <translation>%1 像素的图像太大</translation>
    </message>
    <message>
        <source>out of memory for the image</source>
        <translation>内存不足，无法创建图像</translation>
    </message>
    <message>
        <source>%1 encoding failed</source>
        <translation>%1 编码失败</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastCurvesView</name>
    <message>
        <source>Train a forecaster: its loss, its error against seasonal naive and how much it looks back by whole periods appear here after every epoch.</source>
        <translation>训练一个预测模型：每个轮次结束后，这里会显示它的损失、相对季节性朴素预测的误差，以及它按整周期回看的程度。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Held-out mean absolute error</source>
        <translation>留出集平均绝对误差</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>MAE</source>
        <translation>MAE</translation>
    </message>
    <message>
        <source>Forecaster MAE</source>
        <translation>预测模型 MAE</translation>
    </message>
    <message>
        <source>Seasonal naive MAE</source>
        <translation>季节性朴素预测 MAE</translation>
    </message>
    <message>
        <source>MASE and period-mass ratio</source>
        <translation>MASE 与周期质量比</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>MASE (below 1: better than seasonal naive)</source>
        <translation>MASE（低于 1：优于季节性朴素预测）</translation>
    </message>
    <message>
        <source>Period-mass ratio (above 1: looks back by periods)</source>
        <translation>周期质量比（高于 1：按周期回看）</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>The forecaster&apos;s loss, its held-out error against seasonal naive, MASE and the period-mass ratio after every epoch.</source>
        <translation>每个轮次结束后预测模型的损失、相对季节性朴素预测的留出集误差、MASE 以及周期质量比。</translation>
    </message>
    <message>
        <source>Epoch %1:  validation loss %2 · MAE %3 (seasonal naive %4) · MASE %5</source>
        <translation>轮次 %1：  验证损失 %2 · MAE %3（季节性朴素预测 %4） · MASE %5</translation>
    </message>
    <message>
        <source>period-mass ratio %1</source>
        <translation>周期质量比 %1</translation>
    </message>
    <message>
        <source>%1 windows/s</source>
        <translation>%1 窗口/秒</translation>
    </message>
    <message>
        <source>the curves are exported as CSV, not NPY: save the file with the .csv extension</source>
        <translation>曲线只能导出为 CSV，不能导出为 NPY：请用 .csv 扩展名保存文件</translation>
    </message>
    <message>
        <source>there are no curves to export yet: train a forecaster first</source>
        <translation>尚无可导出的曲线：请先训练一个预测模型</translation>
    </message>
    <message>
        <source>Forecaster training curves</source>
        <translation>预测模型训练曲线</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastHeadsView</name>
    <message>
        <source>Train or open a forecaster: the attention of every layer and head for the forecast shown appears here.</source>
        <translation>训练或打开一个预测模型：所示预测的每一层、每个头的注意力会显示在这里。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Encoder self-attention&lt;/b&gt; over the history, every layer (rows) and head (columns), each on its own scale: a lattice with the period&apos;s spacing is the period seen by the encoder</source>
        <translation>&lt;b&gt;编码器自注意力&lt;/b&gt;作用于历史，涵盖每一层（行）和每个头（列），各自使用独立刻度：若出现间距等于周期的格点图案，说明编码器看到了周期</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cross-attention&lt;/b&gt;: every forecast step (rows) over the history (columns), every decoder layer and head, on one scale</source>
        <translation>&lt;b&gt;交叉注意力&lt;/b&gt;：每个预测步（行）对历史（列）的注意力，涵盖每个解码器层和头，使用同一刻度</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头</translation>
    </message>
    <message>
        <source>The forecaster&apos;s encoder self-attention and cross-attention, every layer and head.</source>
        <translation>预测模型的编码器自注意力和交叉注意力，涵盖每一层和每个头。</translation>
    </message>
    <message>
        <source>there are no heads to show yet: train or open a forecaster first</source>
        <translation>尚无可显示的头：请先训练或打开一个预测模型</translation>
    </message>
    <message>
        <source>The Heads view is exported as PNG, SVG or PDF</source>
        <translation>“头”视图只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Forecaster heads</source>
        <translation>预测模型的头</translation>
    </message>
    <message>
        <source>Switch Heads Off</source>
        <translation>关闭注意力头</translation>
    </message>
    <message>
        <source>Then click a head of either grid to switch it off, or on again: the forecast and every map become the model&apos;s without it.</source>
        <translation>然后点击任一网格中的注意力头将其关闭，再点一次重新开启：预测和每张图都会变成没有它时模型的结果。</translation>
    </message>
    <message>
        <source>All On</source>
        <translation>全部打开</translation>
    </message>
    <message>
        <source>Every head on again.</source>
        <translation>重新开启所有注意力头。</translation>
    </message>
    <message>
        <source>1 head off</source>
        <translation>关闭了 1 个注意力头</translation>
    </message>
    <message>
        <source>%1 heads off</source>
        <translation>关闭了 %1 个注意力头</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: the forecast and every map are the model&apos;s without them.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：预测和每张图都是没有它们时模型的结果。</translation>
    </message>
    <message>
        <source>It moves by %1 a step on average from the full model&apos;s.</source>
        <translation>与完整模型相比，每一步平均偏移 %1。</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastPlot</name>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>%1P</source>
        <translation>%1P</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>cross-attention of step %1 over the history</source>
        <translation>第 %1 步对历史的交叉注意力</translation>
    </message>
    <message>
        <source>steps from the last value read (0); the forecast is +1 … +%1</source>
        <translation>距最后读取值的步数（0）；预测为 +1 … +%1</translation>
    </message>
    <message>
        <source>history</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>truth</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>forecast ± validation RMSE</source>
        <translation>预测 ± 验证 RMSE</translation>
    </message>
    <message>
        <source>forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>seasonal naive</source>
        <translation>季节性朴素预测</translation>
    </message>
    <message>
        <source>whole periods back (P = %1)</source>
        <translation>回看的整周期数（P = %1）</translation>
    </message>
    <message>
        <source>share of attention</source>
        <translation>注意力占比</translation>
    </message>
    <message>
        <source>P = %1</source>
        <translation>P = %1</translation>
    </message>
    <message>
        <source>lag: steps between a forecast step and the history point it reads</source>
        <translation>滞后：预测步与其读取的历史点之间的步数</translation>
    </message>
    <message>
        <source>uniform attention</source>
        <translation>均匀注意力</translation>
    </message>
    <message>
        <source>multiples of the period</source>
        <translation>周期的倍数</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastSession</name>
    <message>
        <source>no model yet</source>
        <translation>尚无模型</translation>
    </message>
    <message>
        <source>%1 (held-out tail)</source>
        <translation>%1（留出的尾段）</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastSetupPanel</name>
    <message>
        <source>The seasonal period in steps (regime: before the change).</source>
        <translation>季节周期的步数（状态切换序列：变化之前的周期）。</translation>
    </message>
    <message>
        <source>Echo: each value repeats the hidden signal this many steps back.</source>
        <translation>回声：每个值重复隐藏信号在这么多步之前的值。</translation>
    </message>
    <message>
        <source>The noise&apos;s standard deviation, in units of the seasonal amplitude.</source>
        <translation>噪声的标准差，以季节振幅为单位。</translation>
    </message>
    <message>
        <source>The CSV column to forecast.</source>
        <translation>要预测的 CSV 列。</translation>
    </message>
    <message>
        <source>A column kept as the time of each value (shown, never read as a number).</source>
        <translation>作为每个值时间的列（仅显示，从不作为数字读取）。</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Series:</source>
        <translation>序列：</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Values to generate.</source>
        <translation>要生成的值的个数。</translation>
    </message>
    <message>
        <source>Period:</source>
        <translation>周期：</translation>
    </message>
    <message>
        <source>Lag:</source>
        <translation>滞后：</translation>
    </message>
    <message>
        <source>Noise:</source>
        <translation>噪声：</translation>
    </message>
    <message>
        <source>Column:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>Timestamp:</source>
        <translation>时间戳：</translation>
    </message>
    <message>
        <source>Data seed:</source>
        <translation>数据种子：</translation>
    </message>
    <message>
        <source>The same seed gives the same series on every computer.</source>
        <translation>相同的种子在每台计算机上生成相同的序列。</translation>
    </message>
    <message>
        <source>seasonal: a period, a trend and noise</source>
        <translation>季节性：周期、趋势和噪声</translation>
    </message>
    <message>
        <source>echo: the value from a fixed lag back</source>
        <translation>回声：固定滞后之前的值</translation>
    </message>
    <message>
        <source>regime: the period changes halfway</source>
        <translation>状态切换：周期在中途改变</translation>
    </message>
    <message>
        <source>CSV file (a header, one column per series)…</source>
        <translation>CSV 文件（含表头，每个序列一列）…</translation>
    </message>
    <message>
        <source>The generated series know what the attention should find (the period, the lag); a CSV file&apos;s column is forecast as it is.</source>
        <translation>生成的序列知道注意力应该找到什么（周期、滞后）；CSV 文件的列则按原样进行预测。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>C: the history points the encoder reads.</source>
        <translation>C：编码器读取的历史点数。</translation>
    </message>
    <message>
        <source>H: the points forecast at once.</source>
        <translation>H：一次预测的点数。</translation>
    </message>
    <message>
        <source>Heads; they must divide the width.</source>
        <translation>头数；必须能整除宽度。</translation>
    </message>
    <message>
        <source>Encoder layers over the history.</source>
        <translation>作用于历史的编码器层数。</translation>
    </message>
    <message>
        <source>Decoder layers: the forecast steps attend to the history.</source>
        <translation>解码器层数：预测步对历史施加注意力。</translation>
    </message>
    <message>
        <source>MSE (squared error)</source>
        <translation>MSE（平方误差）</translation>
    </message>
    <message>
        <source>MAE (absolute error)</source>
        <translation>MAE（绝对误差）</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>local window</source>
        <translation>局部窗口</translation>
    </message>
    <message>
        <source>strided</source>
        <translation>跨步</translation>
    </message>
    <message>
        <source>chunked</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>linear (kernelised)</source>
        <translation>线性（核化）</translation>
    </message>
    <message>
        <source>Which history points the encoder&apos;s self-attention looks at; the forecast steps&apos; cross-attention always sees the whole history.</source>
        <translation>编码器自注意力关注哪些历史点；预测步的交叉注意力始终能看到整个历史。</translation>
    </message>
    <message>
        <source>The local window W, or the band of the strided pattern.</source>
        <translation>局部窗口 W，或跨步模式的带宽。</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>Horizon:</source>
        <translation>预测长度：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头数：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Loss:</source>
        <translation>损失：</translation>
    </message>
    <message>
        <source>Pattern:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Passes over the training windows.</source>
        <translation>遍历训练窗口的次数。</translation>
    </message>
    <message>
        <source>Windows per update.</source>
        <translation>每次更新使用的窗口数。</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Time features</source>
        <translation>时间特征</translation>
    </message>
    <message>
        <source>Adds the sine and cosine of each point&apos;s place in the period (its phase) to its input.</source>
        <translation>将每个点在周期中位置（相位）的正弦和余弦加入其输入。</translation>
    </message>
    <message>
        <source>The Transformer&apos;s width (d_model), as Hidden size is every task&apos;s.</source>
        <translation>Transformer 的宽度（d_model），与其他任务的“隐藏层大小”是同一个设置。</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastTask</name>
    <message>
        <source>Epoch %1 of %2: MAE %3, seasonal naive %4 (MASE %5), period-mass ratio %6</source>
        <translation>第 %1 轮（共 %2 轮）：MAE %3，季节性朴素预测 %4（MASE %5），周期质量比 %6</translation>
    </message>
    <message>
        <source>Held-out tail (%1 windows): MAE %2, seasonal naive %3 (MASE %4), period-mass ratio %5</source>
        <translation>留出尾段（%1 个窗口）：MAE %2，季节性朴素预测 %3（MASE %4），周期质量比 %5</translation>
    </message>
    <message>
        <source>Making the series…</source>
        <translation>正在生成序列…</translation>
    </message>
    <message>
        <source>Cannot Open Series</source>
        <translation>无法打开序列</translation>
    </message>
    <message>
        <source>%1: %2 values.</source>
        <translation>%1：%2 个值。</translation>
    </message>
    <message>
        <source>Period %1.</source>
        <translation>周期 %1。</translation>
    </message>
    <message>
        <source>Lag %1.</source>
        <translation>滞后 %1。</translation>
    </message>
    <message>
        <source>The current forecaster and its unsaved training will be discarded.</source>
        <translation>当前的预测模型及其未保存的训练将被丢弃。</translation>
    </message>
    <message>
        <source>Train a New Forecaster?</source>
        <translation>训练新的预测模型？</translation>
    </message>
    <message>
        <source>Open a Forecaster?</source>
        <translation>打开预测模型？</translation>
    </message>
    <message>
        <source>Open Forecaster</source>
        <translation>打开预测模型</translation>
    </message>
    <message>
        <source>Save Forecaster</source>
        <translation>保存预测模型</translation>
    </message>
    <message>
        <source>Save the Forecaster?</source>
        <translation>保存预测模型？</translation>
    </message>
    <message>
        <source>The forecaster has unsaved training.</source>
        <translation>预测模型有未保存的训练。</translation>
    </message>
    <message>
        <source>Building the model…</source>
        <translation>正在构建模型…</translation>
    </message>
    <message>
        <source>Choose the data first: no series file is chosen.</source>
        <translation>请先选择数据：尚未选择序列文件。</translation>
    </message>
    <message>
        <source>Forecasting: %1</source>
        <translation>预测：%1</translation>
    </message>
    <message>
        <source>A setup saved from AttnLab: say here what the class should look for.</source>
        <translation>AttnLab 保存的设置：请在此说明课堂上应当关注什么。</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open a Time Series</source>
        <translation>打开时间序列</translation>
    </message>
    <message>
        <source>Comma-separated values with a header (*.csv *.txt);;All files (*)</source>
        <translation>带表头的逗号分隔值 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Transformer forecaster (context %1, horizon %2)</source>
        <translation>Transformer 预测模型（上下文 %1，预测长度 %2）</translation>
    </message>
    <message>
        <source>no series</source>
        <translation>无序列</translation>
    </message>
    <message>
        <source>Forecasting</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>A Transformer forecasts a time series from its recent past; its cross-attention shows how far back each forecast step looks.</source>
        <translation>Transformer 根据时间序列的近期历史进行预测；其交叉注意力显示每个预测步回看多远。</translation>
    </message>
    <message>
        <source>forecast windows</source>
        <translation>预测窗口</translation>
    </message>
</context>
<context>
    <name>attnlab::ForecastView</name>
    <message>
        <source>Forecast from:</source>
        <translation>预测起点：</translation>
    </message>
    <message>
        <source>Where in the held-out tail the forecast starts.</source>
        <translation>预测在留出尾段中的起始位置。</translation>
    </message>
    <message>
        <source>t = </source>
        <translation>t = </translation>
    </message>
    <message>
        <source>The index of the first value forecast; the model reads the values before it.</source>
        <translation>第一个预测值的索引；模型读取它之前的值。</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>步：</translation>
    </message>
    <message>
        <source>The forecast step whose attention is drawn under the series; or click a step.</source>
        <translation>其注意力绘制在序列下方的预测步；也可以点击某一步。</translation>
    </message>
    <message>
        <source>Click a forecast step to see its attention over the history.</source>
        <translation>点击某个预测步，查看它在历史上的注意力。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cross-attention&lt;/b&gt;: every forecast step (rows) over the history (columns), the last layer&apos;s heads averaged; click a row to pick its step</source>
        <translation>&lt;b&gt;交叉注意力&lt;/b&gt;：每个预测步（行）在历史（列）上的注意力，取最后一层各头的平均；点击某行以选择该步</translation>
    </message>
    <message>
        <source>forecast step</source>
        <translation>预测步</translation>
    </message>
    <message>
        <source>history (steps from the last value read)</source>
        <translation>历史（距最后读取值的步数）</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>A forecast of the held-out tail against the truth and seasonal naive, and each step&apos;s attention over the history.</source>
        <translation>留出尾段的预测与真实值及季节性朴素预测的对比，以及每一步在历史上的注意力。</translation>
    </message>
    <message>
        <source>t = %1</source>
        <translation>t = %1</translation>
    </message>
    <message>
        <source>%1: %2 steps forecast from %3, reading %4 values</source>
        <translation>%1：从 %3 开始预测 %2 步，读取 %4 个值</translation>
    </message>
    <message>
        <source>series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>This forecast&apos;s mean absolute error: %1</source>
        <translation>此次预测的平均绝对误差：%1</translation>
    </message>
    <message>
        <source>seasonal naive (period %1): %2</source>
        <translation>季节性朴素预测（周期 %1）：%2</translation>
    </message>
    <message>
        <source>step %1 looks most at lag %2</source>
        <translation>第 %1 步最关注滞后 %2</translation>
    </message>
    <message>
        <source> (%1 periods)</source>
        <translation> (%1 个周期)</translation>
    </message>
    <message>
        <source>there is no forecast to export yet: train or open a forecaster first</source>
        <translation>还没有可导出的预测：请先训练或打开一个预测模型</translation>
    </message>
    <message>
        <source>Train a forecaster (Run &gt; Start, F5) or open one: its forecast of the held-out tail and where it looked in the history appear here, and change as it learns.</source>
        <translation>训练一个预测模型（运行 &gt; 开始，F5）或打开一个：它对留出尾段的预测以及它在历史中关注的位置会显示在这里，并随学习过程而变化。</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadGridRenderer</name>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>No attention to show yet</source>
        <translation>暂无可显示的注意力</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>注意力头 %1</translation>
    </message>
    <message>
        <source>no attention to show yet</source>
        <translation>尚无可显示的注意力</translation>
    </message>
    <message>
        <source>Head %1 (off)</source>
        <translation>头 %1（已关闭）</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadGridWidget</name>
    <message>
        <source>Head %1</source>
        <translation>注意力头 %1</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>第 %1 层，注意力头 %2</translation>
    </message>
</context>
<context>
    <name>attnlab::HeadsView</name>
    <message>
        <source>encoder</source>
        <comment>attention kind in a figure title</comment>
        <translation>编码器自</translation>
    </message>
    <message>
        <source>decoder</source>
        <comment>attention kind in a figure title</comment>
        <translation>解码器自</translation>
    </message>
    <message>
        <source>cross</source>
        <comment>attention kind in a figure title</comment>
        <translation>交叉</translation>
    </message>
    <message>
        <source>Type a sentence and press Enter to see every head</source>
        <translation>输入一个句子并按回车，查看每个注意力头</translation>
    </message>
    <message>
        <source>The sentence whose attention the heads show (shared with the Translate view).</source>
        <translation>注意力头所显示注意力对应的句子（与“翻译”视图共用）。</translation>
    </message>
    <message>
        <source>Cross-attention (decoder → encoder)</source>
        <translation>交叉注意力（解码器 → 编码器）</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Which attention of the Transformer to show.</source>
        <translation>要显示 Transformer 的哪一种注意力。</translation>
    </message>
    <message>
        <source>The layer whose heads are shown large; the overview below shows every layer.</source>
        <translation>其注意力头以大图显示的层；下方的总览显示所有层。</translation>
    </message>
    <message>
        <source>0 to 1 for all</source>
        <translation>统一 0 到 1</translation>
    </message>
    <message>
        <source>shared maximum</source>
        <translation>共同最大值</translation>
    </message>
    <message>
        <source>each its own</source>
        <translation>各自缩放</translation>
    </message>
    <message>
        <source>How colours map to weights: one absolute scale, one scale up to the largest weight, or every head stretched to its own maximum.</source>
        <translation>颜色与权重的对应方式：统一的绝对刻度、以最大权重为上限的共同刻度，或每个注意力头按自身最大值拉伸。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Colour scale:</source>
        <translation>颜色刻度：</translation>
    </message>
    <message>
        <source>Click a head to enlarge it; hover a cell to follow its tokens across heads.</source>
        <translation>单击注意力头可放大；鼠标悬停在单元格上可在各注意力头之间追踪对应的词元。</translation>
    </message>
    <message>
        <source>Every layer (rows) and head (columns) of the model; click one to enlarge it.</source>
        <translation>模型的所有层（行）和注意力头（列）；单击其中一个可放大。</translation>
    </message>
    <message>
        <source>Whole model: layers × heads</source>
        <translation>整个模型：层 × 注意力头</translation>
    </message>
    <message>
        <source>A GRU encoder–decoder has a single attention map: at every output step the decoder spreads one unit of attention over the source words. A Transformer has one map per layer and head; train one to compare its heads.</source>
        <translation>GRU 编码器–解码器只有一张注意力图：在每个输出步，解码器把一个单位的注意力分配到各个源词上。Transformer 的每一层、每个注意力头各有一张图；训练一个 Transformer 即可比较它的注意力头。</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>Type a sentence above and press Enter to see the attention of every head.</source>
        <translation>在上方输入一个句子并按回车，查看每个注意力头的注意力。</translation>
    </message>
    <message>
        <source>Start training or open a model, then type a sentence: every attention head of the model is shown here.</source>
        <translation>开始训练或打开一个模型，然后输入一个句子：模型的每个注意力头都会显示在这里。</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>The model ended its output at once, so there is no attention to show for this sentence. Train it a little longer.</source>
        <translation>模型一开始就结束了输出，因此这个句子没有可显示的注意力。请再多训练一会儿。</translation>
    </message>
    <message>
        <source>This GRU has no attention: the decoder only sees one fixed vector that sums up the whole sentence. Choose an attention variant (e.g. additive) and train again to see an attention map.</source>
        <translation>这个 GRU 没有注意力：解码器只能看到一个概括整句的固定向量。请选择一种注意力变体（例如 additive 加性注意力）并重新训练，才能看到注意力图。</translation>
    </message>
    <message>
        <source>Cross-attention (the GRU&apos;s only attention map)</source>
        <translation>交叉注意力（GRU 唯一的注意力图）</translation>
    </message>
    <message>
        <source>This model reported no %1.</source>
        <translation>这个模型没有提供%1。</translation>
    </message>
    <message>
        <source>%1, layer %2: every head</source>
        <translation>%1，第 %2 层：所有注意力头</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3</source>
        <translation>%1，第 %2 层，注意力头 %3</translation>
    </message>
    <message>
        <source>Enlarged: layer %1, head %2 (click a thumbnail to choose)</source>
        <translation>放大显示：第 %1 层，注意力头 %2（单击缩略图进行选择）</translation>
    </message>
    <message>
        <source>decoder input</source>
        <translation>解码器输入</translation>
    </message>
    <message>
        <source>there is no attention to export yet</source>
        <translation>暂无可导出的注意力</translation>
    </message>
    <message>
        <source>%1 attention, layer %2, head %3</source>
        <translation>%1注意力，第 %2 层，注意力头 %3</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Every attention head of every layer.</source>
        <translation>每一层的每个注意力头。</translation>
    </message>
    <message>
        <source>Switch Heads Off</source>
        <translation>关闭注意力头</translation>
    </message>
    <message>
        <source>While pressed, clicking a head switches it off, or on again: the output and every map are then the model&apos;s without it.</source>
        <translation>按下时，点击一个头即可将其关闭或重新打开：输出和所有注意力图随即变为去掉该头后的模型的结果。</translation>
    </message>
    <message>
        <source>Layer Off</source>
        <translation>关闭整层</translation>
    </message>
    <message>
        <source>Switch off every head of the layer shown (of this kind of attention), or on again.</source>
        <translation>关闭（或重新打开）当前显示层中此类注意力的所有头。</translation>
    </message>
    <message>
        <source>Kind Off</source>
        <translation>关闭此类</translation>
    </message>
    <message>
        <source>Switch off every head of this kind of attention in every layer, or on again.</source>
        <translation>关闭（或重新打开）所有层中此类注意力的所有头。</translation>
    </message>
    <message>
        <source>All On</source>
        <translation>全部打开</translation>
    </message>
    <message>
        <source>Switch every head on again.</source>
        <translation>重新打开所有头。</translation>
    </message>
    <message>
        <source>Click a head to switch it off, or on again.</source>
        <translation>点击一个头将其关闭，或重新打开。</translation>
    </message>
    <message>
        <source>Switching 1 head off…</source>
        <translation>正在关闭 1 个头…</translation>
    </message>
    <message>
        <source>Switching %1 heads off…</source>
        <translation>正在关闭 %1 个头…</translation>
    </message>
    <message>
        <source>The heads could not be switched off: %1</source>
        <translation>无法关闭这些头：%1</translation>
    </message>
    <message>
        <source>1 head off (%1).</source>
        <translation>已关闭 1 个头（%1）。</translation>
    </message>
    <message>
        <source>%1 heads off (%2).</source>
        <translation>已关闭 %1 个头（%2）。</translation>
    </message>
    <message>
        <source>The output stays «%1».</source>
        <translation>输出不变：«%1»。</translation>
    </message>
    <message>
        <source>Every head on: «%1»; with these off: «%2».</source>
        <translation>所有头打开时：«%1»；关闭这些头后：«%2»。</translation>
    </message>
    <message>
        <source>The probability of the full model&apos;s output: %1 with every head, %2 with these off.</source>
        <translation>完整模型输出的概率：所有头打开时为 %1，关闭这些头后为 %2。</translation>
    </message>
    <message>
        <source>%1, layer %2: every head (%3 off)</source>
        <translation>%1，第 %2 层：所有头（已关闭 %3 个）</translation>
    </message>
    <message>
        <source>Enlarged: layer %1, head %2, switched off (its softmax, which no longer reaches the output)</source>
        <translation>放大：第 %1 层，头 %2，已关闭（显示的是它的 softmax，但已不再影响输出）</translation>
    </message>
    <message>
        <source>Maps</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>连线</translation>
    </message>
    <message>
        <source>Maps: every head as a heatmap. Lines: the tokens in two columns and a line from each token to each token it attends to, its opacity the weight, one colour per head.</source>
        <translation>热力图：每个头显示为一张热力图。连线：词元排成两列，每个词元与它所关注的每个词元之间画一条线，线的不透明度即权重，每个头一种颜色。</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Hover a token to keep only its lines; click a head&apos;s colour chip to hide or show it.</source>
        <translation>将鼠标悬停在一个词元上即可只显示它的连线；点击某个头的颜色块可隐藏或显示该头。</translation>
    </message>
    <message>
        <source>Every weight is a line (the toolbar&apos;s Keep slider thins them).</source>
        <translation>每个权重都画成一条线（工具栏的“保留”滑块可以减少连线）。</translation>
    </message>
    <message>
        <source>Each row&apos;s largest weights up to %1% of its mass (the toolbar&apos;s Keep slider).</source>
        <translation>每行只保留最大的那些权重，直到它们合计达到该行注意力的 %1%（工具栏的“保留”滑块）。</translation>
    </message>
    <message>
        <source>%1 lines kept; the %2 heaviest are drawn.</source>
        <translation>保留 %1 条连线；只画出权重最大的 %2 条。</translation>
    </message>
    <message>
        <source>%1 lines kept.</source>
        <translation>保留 %1 条连线。</translation>
    </message>
    <message>
        <source>Hover a token to keep only its lines; click a colour chip to hide a head.</source>
        <translation>悬停在词元上可只显示它的连线；点击颜色块可隐藏一个头。</translation>
    </message>
    <message>
        <source>%1, layer %2: each head&apos;s lines</source>
        <translation>%1，第 %2 层：每个头的连线</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>rollout（逐层累积）</translation>
    </message>
    <message>
        <source>Encoder self-attention: rollout through %1 layers</source>
        <translation>编码器自注意力：经过 %1 层的 rollout</translation>
    </message>
    <message>
        <source>Enlarged: the rollout (Abnar &amp; Zuidema 2020), each row sums to 1</source>
        <translation>放大：rollout（Abnar &amp; Zuidema 2020），每行之和为 1</translation>
    </message>
</context>
<context>
    <name>attnlab::HeatmapRenderer</name>
    <message>
        <source>Invalid attention map: %1 × %2 with %3 weights</source>
        <translation>无效的注意力图：%1 × %2，却有 %3 个权重</translation>
    </message>
    <message>
        <source>No attention to show yet</source>
        <translation>暂无可显示的注意力</translation>
    </message>
    <message>
        <source>Attention map too large to draw (%1 × %2)</source>
        <translation>注意力图太大，无法绘制（%1 × %2）</translation>
    </message>
</context>
<context>
    <name>attnlab::HeatmapWidget</name>
    <message>
        <source>Σ output rows %1</source>
        <translation>Σ 输出行 %1</translation>
    </message>
    <message>
        <source>Σ source columns %1</source>
        <translation>Σ 源列 %1</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageCurvesView</name>
    <message>
        <source>Train an image model: its loss, scores and where it looks appear here after every epoch.</source>
        <translation>训练一个图像模型：每轮结束后，这里会显示它的损失、各项指标以及它看向哪里。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Validation scores</source>
        <translation>验证指标</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Rollout on the box</source>
        <translation>落在方框内的注意力展开</translation>
    </message>
    <message>
        <source>Box share of the image (uniform attention)</source>
        <translation>方框占图像的比例（均匀注意力）</translation>
    </message>
    <message>
        <source>Every object named</source>
        <translation>说出了每个物体</translation>
    </message>
    <message>
        <source>Attention peak in the object</source>
        <translation>注意力峰值落在物体上</translation>
    </message>
    <message>
        <source>cross-entropy</source>
        <translation>交叉熵</translation>
    </message>
    <message>
        <source>share (0 to 1)</source>
        <translation>比例（0 到 1）</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention over training&lt;/b&gt;: the probe image at the end of every epoch</source>
        <translation>&lt;b&gt;训练过程中的注意力&lt;/b&gt;：每轮结束时的探针图像</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>The image model&apos;s loss and scores after every epoch, and where it looked at the probe image.</source>
        <translation>图像模型每轮之后的损失和指标，以及它在探针图像上看向哪里。</translation>
    </message>
    <message>
        <source>Epoch %1: validation loss %2 · accuracy %3%</source>
        <translation>第 %1 轮：验证损失 %2 · 准确率 %3%</translation>
    </message>
    <message>
        <source>rollout on the box %1 (uniform %2)</source>
        <translation>方框内的注意力展开 %1（均匀注意力 %2）</translation>
    </message>
    <message>
        <source>%1 images/s</source>
        <translation>%1 张图像/秒</translation>
    </message>
    <message>
        <source>Epoch %1: validation loss %2 · BLEU %3 · every object named %4</source>
        <translation>第 %1 轮：验证损失 %2 · BLEU %3 · 说出每个物体 %4</translation>
    </message>
    <message>
        <source>attention peak in the object %1</source>
        <translation>注意力峰值落在物体上 %1</translation>
    </message>
    <message>
        <source>Epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>there are no curves to export yet: train an image model first</source>
        <translation>还没有可导出的曲线：请先训练一个图像模型</translation>
    </message>
    <message>
        <source>The curves are exported as PNG, SVG or PDF</source>
        <translation>曲线只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Image model training curves</source>
        <translation>图像模型训练曲线</translation>
    </message>
    <message>
        <source>BLEU / 100</source>
        <translation>BLEU / 100</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageExplainView</name>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>Compare the ViT&apos;s attention with four attribution methods on the image the Image view shows, and test which of them finds what the model uses.</source>
        <translation>在图像视图显示的图像上，把 ViT 的注意力与四种归因方法比较，并检验哪一种找到了模型真正使用的东西。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Do they agree?&lt;/b&gt; Kendall&apos;s tau between the patch rankings (1: the same order, 0: unrelated, −1: reversed)</source>
        <translation>&lt;b&gt;它们一致吗？&lt;/b&gt;图像块排序之间的 Kendall tau（1：顺序相同，0：无关，−1：相反）</translation>
    </message>
    <message>
        <source>probability of the class</source>
        <translation>该类别的概率</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <source>Integrated gradients</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>Gradient-weighted rollout</source>
        <translation>梯度加权展开</translation>
    </message>
    <message>
        <source>Random order</source>
        <translation>随机顺序</translation>
    </message>
    <message>
        <source>Choose an image in the Image view first.</source>
        <translation>请先在图像视图中选择一张图像。</translation>
    </message>
    <message>
        <source>The image: %1</source>
        <translation>图像：%1</translation>
    </message>
    <message>
        <source>%1, p = %2. Larger area over the deletion curve: removing what the method ranks first hurts the model more, so the method finds what the model uses.</source>
        <translation>%1，p = %2。删除曲线上方的面积越大：移除该方法排在最前的部分对模型伤害越大，说明该方法找到了模型真正使用的东西。</translation>
    </message>
    <message>
        <source>area over curve %1</source>
        <translation>曲线上方面积 %1</translation>
    </message>
    <message>
        <source>in the box %1</source>
        <translation>方框内 %1</translation>
    </message>
    <message>
        <source>Random order: area over curve %1.</source>
        <translation>随机顺序：曲线上方面积 %1。</translation>
    </message>
    <message>
        <source>The box is %1 of the image: uniform weights would put that much in it.</source>
        <translation>方框占图像的 %1：均匀权重会在其中放这么多。</translation>
    </message>
    <message>
        <source>Integrated gradients (%1 steps from the black image): the attributions sum to %2, the logit changes by %3 (%4% apart).</source>
        <translation>积分梯度（从黑色图像出发，%1 步）：归因之和为 %2，logit 变化 %3（相差 %4%）。</translation>
    </message>
    <message>
        <source>Explain an image first</source>
        <translation>请先解释一张图像</translation>
    </message>
    <message>
        <source>The explanation is exported as PNG, SVG or PDF</source>
        <translation>解释可导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Deletion test</source>
        <translation>删除测试</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Grad.</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>IG</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>Deletion test: the probability of %1</source>
        <translation>删除测试：%1 的概率</translation>
    </message>
    <message>
        <source>Grad. × in</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <source>Grad. roll.</source>
        <translation>梯度展开</translation>
    </message>
    <message>
        <source>share of patches removed, most important first</source>
        <translation>移除的图像块比例（最重要的在前）</translation>
    </message>
    <message>
        <source>The word of the caption to explain.</source>
        <translation>要解释的描述中的词。</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>The word&apos;s attention</source>
        <translation>该词的注意力</translation>
    </message>
    <message>
        <source>Explaining: the maps, then their deletion curves…</source>
        <translation>正在解释：先计算各张图，再计算它们的删除曲线……</translation>
    </message>
    <message>
        <source>Train or open a ViT or a captioner: the explanation lab compares its attention with what its gradients say, on the image the Image view shows.</source>
        <translation>请训练或打开一个 ViT 或描述生成器：解释实验室会在图像视图显示的图像上，把它的注意力与梯度给出的结果进行比较。</translation>
    </message>
    <message>
        <source>The image: %1. Waiting for its caption…</source>
        <translation>图像：%1。正在等待它的描述……</translation>
    </message>
    <message>
        <source>The image: %1. Choose a word of its caption:</source>
        <translation>图像：%1。请选择描述中的一个词：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (word %2 of the caption)</source>
        <translation>“%1”（描述中的第 %2 个词）</translation>
    </message>
    <message>
        <source>share of grid cells removed, most important first</source>
        <translation>移除的网格单元比例（最重要的在前）</translation>
    </message>
    <message>
        <source>probability of the word</source>
        <translation>该词的概率</translation>
    </message>
    <message>
        <source>Is the attention an explanation? A ViT&apos;s rollout, or a caption word&apos;s attention, beside gradient methods, and a deletion test of which one finds what the model uses.</source>
        <translation>注意力是一种解释吗？把 ViT 的注意力展开或描述中某个词的注意力与梯度方法并排比较，并用删除测试检验哪一种找到了模型真正使用的东西。</translation>
    </message>
    <message>
        <source>The box is the %1&apos;s, the object the word belongs to: %2 of the image, what uniform weights would put in it.</source>
        <translation>方框是 %1 的，即这个词所属的物体：占图像的 %2，也就是均匀权重会放在其中的份额。</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageHeadsView</name>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Every layer&apos;s and head&apos;s attention from the class token over the patches of the image shown.</source>
        <translation>当前图像上，每一层每个头从类别标记到各图像块的注意力。</translation>
    </message>
    <message>
        <source>Train or open a ViT and look at an image: each of its heads appears here.</source>
        <translation>训练或打开一个 ViT 并查看一张图像：它的每个头都会显示在这里。</translation>
    </message>
    <message>
        <source>%1 (p = %2): each head&apos;s attention from the class token over the patches, rows = layers, columns = heads. Click one to enlarge it.</source>
        <translation>%1（p = %2）：每个头从类别标记到各图像块的注意力，行 = 层，列 = 头。点击其中一个可放大。</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Layer %1, head %2: click to enlarge</source>
        <translation>第 %1 层，头 %2：点击放大</translation>
    </message>
    <message>
        <source>&lt;b&gt;Layer %1, head %2&lt;/b&gt;</source>
        <translation>&lt;b&gt;第 %1 层，头 %2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Look at an image with a ViT first</source>
        <translation>请先用 ViT 查看一张图像</translation>
    </message>
    <message>
        <source>The heads are exported as PNG, SVG or PDF</source>
        <translation>注意力头可导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>layer %1, head %2</source>
        <translation>第 %1 层，头 %2</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageSession</name>
    <message>
        <source>no model yet</source>
        <translation>尚无模型</translation>
    </message>
    <message>
        <source>not an image model (a translation model or a text classifier?)</source>
        <translation>不是图像模型（是翻译模型还是文本分类器？）</translation>
    </message>
    <message>
        <source>%1 (test)</source>
        <translation>%1（测试集）</translation>
    </message>
    <message>
        <source>%1 (held out)</source>
        <translation>%1（留出部分）</translation>
    </message>
    <message>
        <source>the captioner has no attention heads: its decoder&apos;s attention is additive</source>
        <translation>描述生成器没有注意力头：它的解码器使用加性注意力</translation>
    </message>
    <message>
        <source>choose the images to measure the heads on first</source>
        <translation>请先选择用于测量注意力头的图像</translation>
    </message>
    <message>
        <source>choose a word of the caption to explain</source>
        <translation>请选择描述中要解释的词</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageSetupPanel</name>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>glyphs: a mark among dashes, its box known</source>
        <translation>glyphs：短划线中的一个记号，已知其方框</translation>
    </message>
    <message>
        <source>Fashion-MNIST (Debian&apos;s dataset-fashion-mnist)</source>
        <translation>Fashion-MNIST（Debian 的 dataset-fashion-mnist）</translation>
    </message>
    <message>
        <source>Image folder (DIR/CLASS/*.png)…</source>
        <translation>图像文件夹（DIR/CLASS/*.png）…</translation>
    </message>
    <message>
        <source>scenes: coloured shapes with captions</source>
        <translation>scenes：带描述的彩色形状</translation>
    </message>
    <message>
        <source>Caption list (image, tab, caption)…</source>
        <translation>描述列表（图像、制表符、描述）…</translation>
    </message>
    <message>
        <source>Classes train a vision Transformer (ViT); captions train a captioner that attends over the image as it writes.</source>
        <translation>带类别的数据训练视觉 Transformer（ViT）；带描述的数据训练一个边写边关注图像的描述生成器。</translation>
    </message>
    <message>
        <source>Images to generate, or to read at most.</source>
        <translation>要生成的图像数，或最多读取的图像数。</translation>
    </message>
    <message>
        <source>The same seed gives the same images on every computer.</source>
        <translation>相同的种子在每台计算机上生成相同的图像。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Images:</source>
        <translation>图像数：</translation>
    </message>
    <message>
        <source>Data seed:</source>
        <translation>数据种子：</translation>
    </message>
    <message>
        <source>Vision Transformer</source>
        <translation>视觉 Transformer</translation>
    </message>
    <message>
        <source>Patch side in pixels; it must divide the image side.</source>
        <translation>图像块的边长（像素）；必须能整除图像边长。</translation>
    </message>
    <message>
        <source>The Transformer&apos;s width.</source>
        <translation>Transformer 的宽度。</translation>
    </message>
    <message>
        <source>Heads; they must divide the width.</source>
        <translation>注意力头数；必须能整除宽度。</translation>
    </message>
    <message>
        <source>Encoder layers.</source>
        <translation>编码器层数。</translation>
    </message>
    <message>
        <source>Patch size:</source>
        <translation>图像块大小：</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>注意力头数：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Captioner</source>
        <translation>描述生成器</translation>
    </message>
    <message>
        <source>additive (Bahdanau; Xu et al.)</source>
        <translation>加性（Bahdanau；Xu 等人）</translation>
    </message>
    <message>
        <source>dot (scaled)</source>
        <translation>点积（缩放）</translation>
    </message>
    <message>
        <source>Doubly stochastic attention: pushes every cell to be looked at about once over the caption (0 = off).</source>
        <translation>双重随机注意力：促使每个网格单元在整句描述中大约被看一次（0 = 关闭）。</translation>
    </message>
    <message>
        <source>The GRU decoder&apos;s state size.</source>
        <translation>GRU 解码器的状态大小。</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>Passes over the training images.</source>
        <translation>遍历训练图像的次数。</translation>
    </message>
    <message>
        <source>Images per update.</source>
        <translation>每次更新使用的图像数。</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Coverage λ:</source>
        <translation>覆盖 λ：</translation>
    </message>
    <message>
        <source>Scenes: 0 draws them on black in flat colours; above 0, on a dark grey background with this much random noise on every pixel (the objects and captions stay the same).</source>
        <translation>场景：0 表示在黑色背景上用纯色绘制；大于 0 时，背景为深灰色，每个像素都加上这么多的随机噪声（物体和描述保持不变）。</translation>
    </message>
    <message>
        <source>Noise:</source>
        <translation>噪声：</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageTask</name>
    <message>
        <source>skipped files (%1): %2</source>
        <translation>跳过的文件（%1）：%2</translation>
    </message>
    <message>
        <source>Epoch %1 of %2: accuracy %3</source>
        <translation>第 %1 轮（共 %2 轮）：准确率 %3</translation>
    </message>
    <message>
        <source>, rollout on the mark %1 (uniform %2)</source>
        <translation>，记号上的注意力展开 %1（均匀注意力 %2）</translation>
    </message>
    <message>
        <source>Epoch %1 of %2: BLEU %3, every object named %4</source>
        <translation>第 %1 轮（共 %2 轮）：BLEU %3，说出每个物体 %4</translation>
    </message>
    <message>
        <source>Making the images…</source>
        <translation>正在生成图像…</translation>
    </message>
    <message>
        <source>Cannot Open Images</source>
        <translation>无法打开图像</translation>
    </message>
    <message>
        <source>%1: %2 images in %3 classes.</source>
        <translation>%1：%2 张图像，%3 个类别。</translation>
    </message>
    <message>
        <source>%1: %2 captioned images.</source>
        <translation>%1：%2 张带描述的图像。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>The current image model and its unsaved training will be discarded.</source>
        <translation>当前的图像模型及其未保存的训练将被丢弃。</translation>
    </message>
    <message>
        <source>Train a New Image Model?</source>
        <translation>训练新的图像模型？</translation>
    </message>
    <message>
        <source>Building the model…</source>
        <translation>正在构建模型…</translation>
    </message>
    <message>
        <source>Open an Image Folder (one folder per class)</source>
        <translation>打开图像文件夹（每个类别一个文件夹）</translation>
    </message>
    <message>
        <source>Open a Caption List</source>
        <translation>打开描述列表</translation>
    </message>
    <message>
        <source>Image and caption, tab-separated (*.tsv *.txt);;All files (*)</source>
        <translation>图像与描述，以制表符分隔 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open an Image Model?</source>
        <translation>打开图像模型？</translation>
    </message>
    <message>
        <source>Open Image Model</source>
        <translation>打开图像模型</translation>
    </message>
    <message>
        <source>Save Image Model</source>
        <translation>保存图像模型</translation>
    </message>
    <message>
        <source>Save the Image Model?</source>
        <translation>保存图像模型？</translation>
    </message>
    <message>
        <source>The image model has unsaved training.</source>
        <translation>图像模型有未保存的训练。</translation>
    </message>
    <message>
        <source>captioner, %1 attention</source>
        <translation>描述生成器，%1 注意力</translation>
    </message>
    <message>
        <source>ViT (%1 layers, %2 heads)</source>
        <translation>ViT（%1 层，%2 个注意力头）</translation>
    </message>
    <message>
        <source>no images</source>
        <translation>没有图像</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>A vision Transformer classifies images and an image captioner describes them; both show where in the image they look.</source>
        <translation>视觉 Transformer 对图像分类，图像描述生成器描述图像；两者都会显示它们在图像中看向哪里。</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Choose the data first: no folder or caption file is chosen.</source>
        <translation>请先选择数据：尚未选择文件夹或标注文件。</translation>
    </message>
    <message>
        <source>Images: %1</source>
        <translation>图像：%1</translation>
    </message>
    <message>
        <source>A setup saved from AttnLab: say here what the class should look for.</source>
        <translation>AttnLab 保存的设置：请在此说明课堂上应当关注什么。</translation>
    </message>
    <message>
        <source>A captioner has no self-attention heads: its words&apos; attention over the image is in the Image view.</source>
        <translation>描述生成器没有自注意力头：它每个词在图像上的注意力在图像视图中。</translation>
    </message>
    <message>
        <source>images</source>
        <translation>图像</translation>
    </message>
</context>
<context>
    <name>attnlab::ImageView</name>
    <message>
        <source>Open Image…</source>
        <translation>打开图像…</translation>
    </message>
    <message>
        <source>A PNG or JPEG file; you can also drop one on this view.</source>
        <translation>PNG 或 JPEG 文件；也可以把文件拖放到此视图上。</translation>
    </message>
    <message>
        <source>The rollout multiplies every layer&apos;s head-averaged attention (with the residual); a layer&apos;s [CLS] row is what the classifying token reads there.</source>
        <translation>注意力展开将每层各头平均后的注意力（加上残差）相乘；某层的 [CLS] 行是分类标记在该层读取的内容。</translation>
    </message>
    <message>
        <source>How strongly the attention covers the image.</source>
        <translation>注意力覆盖图像的强度。</translation>
    </message>
    <message>
        <source>Smooth (bilinear)</source>
        <translation>平滑（双线性）</translation>
    </message>
    <message>
        <source>Off: each patch is one crisp square of its weight.</source>
        <translation>关闭时：每个图像块是一个按其权重着色的清晰方块。</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Opacity:</source>
        <translation>不透明度：</translation>
    </message>
    <message>
        <source>Colours:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attended by&lt;/b&gt;: which patches look at the one under the mouse</source>
        <translation>&lt;b&gt;被关注&lt;/b&gt;：哪些图像块在看鼠标下的那个图像块</translation>
    </message>
    <message>
        <source>&lt;b&gt;Dataset&lt;/b&gt;: pick an image to look at</source>
        <translation>&lt;b&gt;数据集&lt;/b&gt;：选择一张图像来查看</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>An image with the model&apos;s attention over it: a ViT&apos;s rollout, layers and heads, or a captioner&apos;s attention word by word.</source>
        <translation>叠加了模型注意力的图像：ViT 的注意力展开、各层与各头，或描述生成器逐词的注意力。</translation>
    </message>
    <message>
        <source>%1: cannot be read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <source>%1: larger than 64 MiB, not opened</source>
        <translation>%1：大于 64 MiB，未打开</translation>
    </message>
    <message>
        <source>Open Image</source>
        <translation>打开图像</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg);;All files (*)</source>
        <translation>图像 (*.png *.jpg *.jpeg);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Image %1</source>
        <translation>图像 %1</translation>
    </message>
    <message>
        <source>%1, image %2</source>
        <translation>%1，图像 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp; p = %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp; p = %2</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>注意力展开</translation>
    </message>
    <message>
        <source>Layer %1, heads averaged ([CLS] row)</source>
        <translation>第 %1 层，各头平均（[CLS] 行）</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>第 %1 层，注意力头 %2</translation>
    </message>
    <message>
        <source>Hover a patch: what it attends to is drawn on the image, what attends to it above.</source>
        <translation>将鼠标悬停在图像块上：它关注的内容画在图像上，关注它的内容显示在上方。</translation>
    </message>
    <message>
        <source>Patch (row %1, column %2) looks most at patch (row %3, column %4), %5 of its attention; the patch looking at it most is (row %6, column %7).</source>
        <translation>图像块（第 %1 行，第 %2 列）最关注图像块（第 %3 行，第 %4 列），占其注意力的 %5；最关注它的图像块是（第 %6 行，第 %7 列）。</translation>
    </message>
    <message>
        <source>Cell (row %1, column %2): weight %3</source>
        <translation>网格单元（第 %1 行，第 %2 列）：权重 %3</translation>
    </message>
    <message>
        <source>Look at an image with a model first</source>
        <translation>请先用模型查看一张图像</translation>
    </message>
    <message>
        <source>The Image view is exported as PNG, SVG or PDF</source>
        <translation>图像视图只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>%1 (p = %2) · %3</source>
        <translation>%1（p = %2）· %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;In the objects&apos; boxes&lt;/b&gt;: each word&apos;s share of attention; ● its peak</source>
        <translation>&lt;b&gt;在物体的方框内&lt;/b&gt;：每个词的注意力份额；● 表示峰值所在</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>词</translation>
    </message>
    <message>
        <source>%1 of the attention of &quot;%2&quot; is in the box of the %3 (uniform: %4)%5</source>
        <translation>“%2”的注意力有 %1 落在 %3 的方框内（均匀：%4）%5</translation>
    </message>
    <message>
        <source>; its peak is there</source>
        <translation>；其峰值就在那里</translation>
    </message>
    <message>
        <source>The caption names none of the objects.</source>
        <translation>描述没有说出任何物体。</translation>
    </message>
    <message>
        <source>Train a model (Run &gt; Start, F5) or open one: where it looks in the image appears here, and changes as it learns.</source>
        <translation>训练一个模型（运行 &gt; 开始，F5）或打开一个模型：它在图像中看向哪里会显示在这里，并随学习而变化。</translation>
    </message>
    <message>
        <source>The decoder reads the word it wrote last, then asks over the cells: this map is the attention of the step that wrote the chosen word, read together with the decoder&apos;s state to choose it.</source>
        <translation>解码器先读入它上一步写出的词，再在网格单元上提问：这张图是写出所选词那一步的注意力，它与解码器的状态一起决定了这个词。</translation>
    </message>
    <message>
        <source>Each word&apos;s class, and whether its attention peaks on its own object: a colour or shape word&apos;s (and the article before them) is the object the phrase names; a relation word&apos;s, either object it stands between. Then the share of the word&apos;s attention inside each object&apos;s box (uniform attention would give the box&apos;s share of the image). ● marks the object where the word&apos;s attention peaks: the peak cell&apos;s centre inside the box or within half a cell of it.</source>
        <translation>每个词的类别，以及它的注意力峰值是否落在它自己的物体上：颜色词或形状词（以及它们前面的冠词）的物体是该短语所指的物体；关系词的物体是它所连接的两个物体之一。然后是该词的注意力落在每个物体方框内的份额（均匀注意力会得到方框占图像的份额）。● 标出该词注意力峰值所在的物体：峰值单元的中心在方框内或距方框不超过半个单元。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every word&lt;/b&gt;: where the captioner looked while writing it</source>
        <translation>&lt;b&gt;每个词&lt;/b&gt;：描述生成器写出它时看向了哪里</translation>
    </message>
    <message>
        <source>Show where the captioner looked while writing this word</source>
        <translation>显示描述生成器写这个词时看向了哪里</translation>
    </message>
    <message>
        <source>article</source>
        <translation>冠词</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>relation</source>
        <translation>关系</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Own object</source>
        <translation>自己的物体</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>&quot;%1&quot; belongs to no object of this scene</source>
        <translation>“%1”不属于这个场景中的任何物体</translation>
    </message>
    <message>
        <source>&quot;%1&quot; peaks on the object it belongs to</source>
        <translation>“%1”的峰值落在它所属的物体上</translation>
    </message>
    <message>
        <source>&quot;%1&quot; peaks away from the object it belongs to</source>
        <translation>“%1”的峰值偏离了它所属的物体</translation>
    </message>
    <message>
        <source>shape words</source>
        <translation>形状词</translation>
    </message>
    <message>
        <source>colour words</source>
        <translation>颜色词</translation>
    </message>
    <message>
        <source>articles</source>
        <translation>冠词</translation>
    </message>
    <message>
        <source>relation words</source>
        <translation>关系词</translation>
    </message>
    <message>
        <source>phrases (colour + shape)</source>
        <translation>短语（颜色 + 形状）</translation>
    </message>
    <message>
        <source>%1 %2 of %3</source>
        <translation>%1 %3 个中有 %2 个</translation>
    </message>
    <message>
        <source>Peaks on the word&apos;s own object: %1</source>
        <translation>峰值落在词自己的物体上：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;While writing “%1”&lt;/b&gt; (word %2 of %3): where the captioner looked to choose it</source>
        <translation>&lt;b&gt;写“%1”时&lt;/b&gt;（第 %2 个词，共 %3 个）：描述生成器为选出它而看向的地方</translation>
    </message>
</context>
<context>
    <name>attnlab::ImportanceView</name>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Measure the Heads</source>
        <translation>测量注意力头</translation>
    </message>
    <message>
        <source>Runs on the training worker: a run in progress waits until it is done.</source>
        <translation>在训练线程上运行：正在进行的训练会等待它完成。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Δ loss</source>
        <translation>Δ 损失</translation>
    </message>
    <message>
        <source>share of heads switched off</source>
        <translation>已关闭头的比例</translation>
    </message>
    <message>
        <source>least important first</source>
        <translation>先关闭最不重要的</translation>
    </message>
    <message>
        <source>random order (mean)</source>
        <translation>随机顺序（平均）</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>%1: importance</source>
        <translation>%1：重要性</translation>
    </message>
    <message>
        <source>The heads could not be measured: %1</source>
        <translation>无法测量这些头：%1</translation>
    </message>
    <message>
        <source>Press Measure the Heads once the model has trained.</source>
        <translation>模型训练完成后，请点击“测量注意力头”。</translation>
    </message>
    <message>
        <source>Train or open a Transformer: a GRU has no attention heads to switch off.</source>
        <translation>请训练或打开一个 Transformer：GRU 没有可以关闭的注意力头。</translation>
    </message>
    <message>
        <source>the heads are exported as CSV, not NPY: save the file with the .csv extension</source>
        <translation>注意力头数据只能导出为 CSV，不能导出为 NPY：请用 .csv 扩展名保存文件</translation>
    </message>
    <message>
        <source>there is nothing to export yet: measure the heads first</source>
        <translation>还没有可导出的内容：请先测量注意力头</translation>
    </message>
    <message>
        <source>Head pruning curve</source>
        <translation>注意力头剪枝曲线</translation>
    </message>
    <message>
        <source>How many held-out items to measure on (0: all). Each head costs one pass over them.</source>
        <translation>在多少个留出样本上测量（0：全部）。每个注意力头都要在它们上完整计算一遍。</translation>
    </message>
    <message>
        <source>Δ metric</source>
        <translation>Δ 指标</translation>
    </message>
    <message>
        <source>The metric as heads are switched off</source>
        <translation>关闭注意力头时的指标</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Which heads matter? Measure switches each head off alone over the held-out %1 (the change in loss and in the task&apos;s metric) and ranks the heads by their gradient importance (Michel et al. 2019, normalised within each layer). The chart switches heads off together, the least important first, beside random orders.</source>
        <translation>哪些注意力头重要？“测量”在留出的%1上逐个单独关闭每个注意力头（损失和任务指标的变化），并按梯度重要性（Michel 等人 2019，在每层内归一化）为它们排序。图表把注意力头一起关闭，从最不重要的开始，并与随机顺序对比。</translation>
    </message>
    <message>
        <source>pairs</source>
        <translation>句对</translation>
    </message>
    <message>
        <source>Measuring: pass %1 of %2 over the %3…</source>
        <translation>正在测量：在%3上第 %1 遍，共 %2 遍…</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>MAE</source>
        <translation>MAE</translation>
    </message>
    <message>
        <source>%1 heads over %2 %3 of %4: %5 %6 with every head on, loss %7.</source>
        <translation>%1 个注意力头，基于 %4 的 %2 个%3：所有注意力头开启时 %5 为 %6，损失 %7。</translation>
    </message>
    <message>
        <source>Δ %1</source>
        <translation>Δ %1</translation>
    </message>
    <message>
        <source>%1 as heads are switched off</source>
        <translation>关闭注意力头时的%1</translation>
    </message>
    <message>
        <source>Each head of a Transformer switched off over the held-out %1: its importance, what it costs, and the pruning curve.</source>
        <translation>在留出的%1上逐个关闭 Transformer 的每个注意力头：它的重要性、关闭它的代价以及剪枝曲线。</translation>
    </message>
    <message>
        <source>At most:</source>
        <translation>最多：</translation>
    </message>
</context>
<context>
    <name>attnlab::LagProfileView</name>
    <message>
        <source>Train a forecaster: after every epoch, how far back its attention looks appears here, with the period marked.</source>
        <translation>训练一个预测模型：每个轮次结束后，其注意力回看多远会显示在这里，并标出周期。</translation>
    </message>
    <message>
        <source>The epoch whose profile is drawn; the newest is followed while training.</source>
        <translation>绘制其分布曲线的轮次；训练时会跟随最新的轮次。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The profile forming&lt;/b&gt;: one row per epoch, lags left to right</source>
        <translation>&lt;b&gt;分布曲线的形成&lt;/b&gt;：每个轮次一行，滞后从左到右</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>lag</source>
        <translation>滞后</translation>
    </message>
    <message>
        <source>Lag profile</source>
        <translation>滞后分布</translation>
    </message>
    <message>
        <source>How far back the forecast steps look: attention against lag after every epoch, with the period marked.</source>
        <translation>预测步回看多远：每个轮次结束后注意力随滞后的分布，并标出周期。</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Epoch %1 of %2</source>
        <translation>第 %1 轮（共 %2 轮）</translation>
    </message>
    <message>
        <source>held-out windows&apos; mean, epoch %1</source>
        <translation>留出窗口的平均值，第 %1 轮</translation>
    </message>
    <message>
        <source>Attention against lag after epoch %1: period-mass ratio %2</source>
        <translation>第 %1 轮后注意力随滞后的分布：周期质量比 %2</translation>
    </message>
    <message>
        <source>Epoch %1: the attention on points a whole number of periods back is %2 times their share of the history (1 = uniform)</source>
        <translation>第 %1 轮：落在整数个周期之前的点上的注意力是它们在历史中所占份额的 %2 倍（1 = 均匀）</translation>
    </message>
    <message>
        <source>the forecast shown</source>
        <translation>当前显示的预测</translation>
    </message>
    <message>
        <source>Attention against lag of the forecast shown: period-mass ratio %1</source>
        <translation>当前显示的预测的注意力随滞后的分布：周期质量比 %1</translation>
    </message>
    <message>
        <source>The forecast shown puts %1 times their share of the history on points a whole number of periods back (1 = uniform)</source>
        <translation>当前显示的预测在整数个周期之前的点上投入的注意力是它们在历史中所占份额的 %1 倍（1 = 均匀）</translation>
    </message>
    <message>
        <source>No period: none was given and none was found in the training part.</source>
        <translation>无周期：未指定周期，也未在训练部分中找到周期。</translation>
    </message>
    <message>
        <source>Attention against lag</source>
        <translation>注意力随滞后的分布</translation>
    </message>
    <message>
        <source>there is no lag profile to export yet: train a forecaster first</source>
        <translation>还没有可导出的滞后分布：请先训练一个预测模型</translation>
    </message>
</context>
<context>
    <name>attnlab::LineViewRenderer</name>
    <message>
        <source>No attention to show yet</source>
        <translation>尚无可显示的注意力</translation>
    </message>
    <message>
        <source>no attention to show yet</source>
        <translation>尚无可显示的注意力</translation>
    </message>
</context>
<context>
    <name>attnlab::LmCircuitsView</name>
    <message>
        <source>Train a language model: every head&apos;s previous-token, duplicate-token and induction scores appear here at each report, beside the loss.</source>
        <translation>训练一个语言模型：每次报告时，这里会在损失旁显示每个头的前一词元、重复词元和归纳分数。</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>held out</source>
        <translation>留出</translation>
    </message>
    <message>
        <source>ICL score</source>
        <translation>ICL 分数</translation>
    </message>
    <message>
        <source>induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>前一词元</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>copy accuracy</source>
        <translation>复制准确率</translation>
    </message>
    <message>
        <source>induction head forms</source>
        <translation>归纳头形成</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Previous token</source>
        <translation>前一词元</translation>
    </message>
    <message>
        <source>Duplicate token</source>
        <translation>重复词元</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>归纳</translation>
    </message>
    <message>
        <source>The share of each head&apos;s attention on the expected positions of a repeated random sequence (TransformerLens&apos;s head detector; &lt;bos&gt; and the token itself left out). Click a head to see its attention.</source>
        <translation>每个头在重复随机序列上落在预期位置的注意力比例（TransformerLens 的头检测器；不计 &lt;bos&gt; 和词元自身）。点击一个头查看它的注意力。</translation>
    </message>
    <message>
        <source>Click a head in the table: its attention on a repeated random sequence.</source>
        <translation>点击表格中的一个头：查看它在重复随机序列上的注意力。</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Circuits</source>
        <translation>回路</translation>
    </message>
    <message>
        <source>Every head&apos;s previous-token, duplicate-token and induction scores as the model trains, beside the loss.</source>
        <translation>模型训练时每个头的前一词元、重复词元和归纳分数，与损失并列。</translation>
    </message>
    <message>
        <source>Step %1: loss %2 (held out %3)</source>
        <translation>第 %1 步：损失 %2（留出 %3）</translation>
    </message>
    <message>
        <source>copy accuracy %1</source>
        <translation>复制准确率 %1</translation>
    </message>
    <message>
        <source>in-context learning %1</source>
        <translation>上下文学习 %1</translation>
    </message>
    <message>
        <source>best induction %1, previous token %2</source>
        <translation>最佳归纳 %1，前一词元 %2</translation>
    </message>
    <message>
        <source>The induction score rose past %1 at step %2; the held-out loss fell most by step %3.</source>
        <translation>归纳分数在第 %2 步超过 %1；留出损失在第 %3 步前下降最多。</translation>
    </message>
    <message>
        <source>One layer: no head can find the token after an earlier copy of the current one.</source>
        <translation>只有一层：没有哪个头能找到当前词元上一次出现之后的那个词元。</translation>
    </message>
    <message>
        <source>%1 on a random sequence repeated once. Red line: the token after the earlier copy (induction); green: the previous token.</source>
        <translation>%1 在重复一次的随机序列上。红线：上一次出现之后的词元（归纳）；绿线：前一词元。</translation>
    </message>
    <message>
        <source>Scores: previous %1, duplicate %2, induction %3.</source>
        <translation>分数：前一词元 %1，重复 %2，归纳 %3。</translation>
    </message>
    <message>
        <source>No scores yet: train or open a model first.</source>
        <translation>还没有分数：请先训练或打开一个模型。</translation>
    </message>
    <message>
        <source>The circuits table is written as CSV only.</source>
        <translation>回路表只能导出为 CSV。</translation>
    </message>
    <message>
        <source>No curves yet: the charts fill as the model trains.</source>
        <translation>还没有曲线：图表会随模型训练而填充。</translation>
    </message>
    <message>
        <source>loss (nats)</source>
        <translation>损失（奈特）</translation>
    </message>
    <message>
        <source>head score</source>
        <translation>头分数</translation>
    </message>
</context>
<context>
    <name>attnlab::LmCurvesView</name>
    <message>
        <source>Train a language model: its loss and how well it copies a repeated sequence appear here at every report.</source>
        <translation>训练一个语言模型：每次报告时，这里显示它的损失以及复制重复序列的能力。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation>留出损失</translation>
    </message>
    <message>
        <source>nats per token</source>
        <translation>每词元奈特</translation>
    </message>
    <message>
        <source>Copying a repeated sequence</source>
        <translation>复制重复序列</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>share</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Copy accuracy (the second copy&apos;s next token)</source>
        <translation>复制准确率（第二份副本的下一个词元）</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>The training and held-out loss and the copy accuracy, against the training step.</source>
        <translation>训练损失、留出损失和复制准确率随训练步数的变化。</translation>
    </message>
    <message>
        <source>Step %1 (pass %2 over the text): loss %3, held out %4; copy accuracy %5; %6 tokens/s</source>
        <translation>第 %1 步（第 %2 遍读文本）：损失 %3，留出 %4；复制准确率 %5；每秒 %6 个词元</translation>
    </message>
    <message>
        <source>No curves yet: they fill as the model trains.</source>
        <translation>还没有曲线：它们会随模型训练而填充。</translation>
    </message>
    <message>
        <source>The curves are written as CSV, not NPY.</source>
        <translation>曲线导出为 CSV，而不是 NPY。</translation>
    </message>
    <message>
        <source>Language model training</source>
        <translation>语言模型训练</translation>
    </message>
</context>
<context>
    <name>attnlab::LmGenerateView</name>
    <message>
        <source>Type the beginning of a text; the model continues it.</source>
        <translation>输入一段文本的开头，模型会接着写下去。</translation>
    </message>
    <message>
        <source>Tokens to generate.</source>
        <translation>要生成的词元数。</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Off: the most probable token each time (greedy). On: drawn with the temperature, top-k and top-p of the decoding lab.</source>
        <translation>关闭：每次取最可能的词元（贪心）。开启：按解码实验室的温度、top-k 和 top-p 抽样。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>New tokens:</source>
        <translation>新词元：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>The prompt (grey) and the continuation; click a generated token to see what its prediction attended to.</source>
        <translation>提示（灰色）和续写；点击一个生成的词元，查看预测它时关注了什么。</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>The model continues a prompt; each generated token shows what it attended to and the next-token distribution.</source>
        <translation>模型续写提示；每个生成的词元都显示它关注了什么以及下一个词元的分布。</translation>
    </message>
    <message>
        <source>Train or open a language model to generate text.</source>
        <translation>训练或打开一个语言模型来生成文本。</translation>
    </message>
    <message numerus="yes">
        <source>The prompt is longer than the model&apos;s context: its first %n token(s) were left out.</source>
        <translation>
            <numerusform>提示比模型的上下文长：前 %n 个词元被略去。</numerusform>
        </translation>
    </message>
    <message>
        <source>Continuation: %1</source>
        <translation>续写：%1</translation>
    </message>
    <message>
        <source>This token&apos;s prediction read tokens no longer in the context.</source>
        <translation>预测这个词元时读取的词元已不在上下文中。</translation>
    </message>
    <message>
        <source>layer %1, mean</source>
        <translation>第 %1 层，平均</translation>
    </message>
    <message>
        <source>Generated token %1, “%2”: what the query at “%3” attended to when it predicted it.</source>
        <translation>生成的第 %1 个词元“%2”：位于“%3”的查询在预测它时关注了什么。</translation>
    </message>
    <message>
        <source>Nothing generated yet.</source>
        <translation>还没有生成任何内容。</translation>
    </message>
    <message>
        <source>The attention rows are written as PNG, SVG or PDF.</source>
        <translation>注意力行导出为 PNG、SVG 或 PDF。</translation>
    </message>
</context>
<context>
    <name>attnlab::LmHeadsView</name>
    <message>
        <source>A text for the model to read</source>
        <translation>让模型读取的文本</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>连线</translation>
    </message>
    <message>
        <source>Grid: every head as a heatmap. Lines: one layer&apos;s heads as lines between the tokens.</source>
        <translation>网格：每个头一张热力图。连线：一层的各个头画成词元之间的连线。</translation>
    </message>
    <message>
        <source>The layer the line view draws.</source>
        <translation>连线视图绘制的层。</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Every layer&apos;s and head&apos;s attention over a text, as heatmaps or as lines.</source>
        <translation>每一层、每个头在一段文本上的注意力，以热力图或连线显示。</translation>
    </message>
    <message>
        <source>Train or open a language model to see its heads.</source>
        <translation>训练或打开一个语言模型来查看它的注意力头。</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message numerus="yes">
        <source>The text is longer than the model&apos;s context: its first %n token(s) were left out.</source>
        <translation>
            <numerusform>文本比模型的上下文长：前 %n 个词元被略去。</numerusform>
        </translation>
    </message>
    <message>
        <source>Layer %1, head %2 (rows: the token reading; columns: the tokens read)</source>
        <translation>第 %1 层，第 %2 个头（行：正在读取的词元；列：被读取的词元）</translation>
    </message>
    <message>
        <source>No text read yet.</source>
        <translation>还没有读取任何文本。</translation>
    </message>
</context>
<context>
    <name>attnlab::LmSession</name>
    <message>
        <source>no model yet</source>
        <translation>还没有模型</translation>
    </message>
    <message>
        <source>the held-out documents</source>
        <translation>留出的文档</translation>
    </message>
</context>
<context>
    <name>attnlab::LmSetupPanel</name>
    <message>
        <source>characters</source>
        <translation>字符</translation>
    </message>
    <message>
        <source>words</source>
        <translation>单词</translation>
    </message>
    <message>
        <source>byte-level BPE (learned from the text)</source>
        <translation>字节级 BPE（从文本中学习）</translation>
    </message>
    <message>
        <source>How a text file is cut into tokens. The induction set is always read as words.</source>
        <translation>文本文件如何切分成词元。归纳数据集总是按单词读取。</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <source>Lines:</source>
        <translation>行数：</translation>
    </message>
    <message>
        <source>Lines of the induction set to generate.</source>
        <translation>要生成的归纳数据集行数。</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>词元：</translation>
    </message>
    <message>
        <source>Data seed:</source>
        <translation>数据种子：</translation>
    </message>
    <message>
        <source>The same seed gives the same lines on every computer.</source>
        <translation>相同的种子在每台计算机上生成相同的行。</translation>
    </message>
    <message>
        <source>repeats: random sequences repeated (the induction set)</source>
        <translation>repeats：重复的随机序列（归纳数据集）</translation>
    </message>
    <message>
        <source>gettext: the English messages of this computer&apos;s programs</source>
        <translation>gettext：本机程序的英文消息</translation>
    </message>
    <message>
        <source>Text file (UTF-8, one document per line)…</source>
        <translation>文本文件（UTF-8，每行一篇文档）…</translation>
    </message>
    <message>
        <source>On the induction set a two-layer model learns to copy: the induction head forms there. Real text shows what a small model attends to in language.</source>
        <translation>在归纳数据集上，两层模型学会复制：归纳头就在那里形成。真实文本展示小模型在语言中关注什么。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Blocks of self-attention; one layer cannot form an induction head.</source>
        <translation>自注意力块的数量；一层无法形成归纳头。</translation>
    </message>
    <message>
        <source>Heads per layer; they must divide the width.</source>
        <translation>每层的头数；必须能整除宽度。</translation>
    </message>
    <message>
        <source>The Transformer&apos;s width (d_model), as Hidden size is every task&apos;s.</source>
        <translation>Transformer 的宽度（d_model），与其他任务的“隐藏层大小”相同。</translation>
    </message>
    <message>
        <source>The tokens the model reads at most (the induction set&apos;s lines are this long).</source>
        <translation>模型最多读取的词元数（归纳数据集的每行就是这么长）。</translation>
    </message>
    <message>
        <source>Attention only (no MLP)</source>
        <translation>仅注意力（无 MLP）</translation>
    </message>
    <message>
        <source>Blocks without the feed-forward MLP, as in the circuits papers.</source>
        <translation>不含前馈 MLP 的块，与回路论文中相同。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>pre-LayerNorm (GPT-2)</source>
        <translation>前置 LayerNorm（GPT-2）</translation>
    </message>
    <message>
        <source>Where the blocks normalise: nowhere, or before each sublayer and at the end as GPT-2.</source>
        <translation>块在哪里归一化：不归一化，或像 GPT-2 那样在每个子层之前和最后归一化。</translation>
    </message>
    <message>
        <source>Tied unembedding</source>
        <translation>共享输出嵌入</translation>
    </message>
    <message>
        <source>The output layer reuses the token embedding&apos;s matrix, as GPT-2.</source>
        <translation>输出层复用词元嵌入矩阵，与 GPT-2 相同。</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>学习得到</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>causal (GPT: the next token)</source>
        <translation>因果（GPT：下一个词元）</translation>
    </message>
    <message>
        <source>masked (BERT: 15% hidden)</source>
        <translation>掩码（BERT：隐藏 15%）</translation>
    </message>
    <message>
        <source>Causal attention sees only earlier tokens; masked attention sees both ways.</source>
        <translation>因果注意力只看到之前的词元；掩码注意力两个方向都能看到。</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头数：</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>LayerNorm:</source>
        <translation>LayerNorm：</translation>
    </message>
    <message>
        <source>Positions:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Documents per update.</source>
        <translation>每次更新的文档数。</translation>
    </message>
    <message>
        <source>Updates in all; a report every %1 steps.</source>
        <translation>总更新次数；每 %1 步报告一次。</translation>
    </message>
    <message>
        <source>Steps over which the learning rate rises from 0.</source>
        <translation>学习率从 0 升起所用的步数。</translation>
    </message>
    <message>
        <source>Steps:</source>
        <translation>步数：</translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>fortunes: Debian&apos;s quotations, one document each</source>
        <translation>fortunes：Debian 的名言警句，每条一篇文档</translation>
    </message>
</context>
<context>
    <name>attnlab::LmTask</name>
    <message>
        <source>the induction set needs a context above %1 tokens (a prefix and two copies of a sequence)</source>
        <translation>归纳数据集需要超过 %1 个词元的上下文（一段前缀和一个序列的两份副本）</translation>
    </message>
    <message>
        <source>held-out documents</source>
        <translation>留出文档</translation>
    </message>
    <message>
        <source>Opened: %1 layers of %2 heads, context %3, %4 tokens.</source>
        <translation>已打开：%1 层，每层 %2 个头，上下文 %3，词元 %4。</translation>
    </message>
    <message>
        <source>Training on %1 documents (%2 held out): %3 parameters.</source>
        <translation>在 %1 篇文档上训练（留出 %2 篇）：%3 个参数。</translation>
    </message>
    <message>
        <source>Step %1 of %2: loss %3, held out %4, copy accuracy %5</source>
        <translation>第 %1/%2 步：损失 %3，留出 %4，复制准确率 %5</translation>
    </message>
    <message>
        <source>Reading the text…</source>
        <translation>正在读取文本…</translation>
    </message>
    <message>
        <source>Cannot Read the Text</source>
        <translation>无法读取文本</translation>
    </message>
    <message>
        <source>%1: %2 documents, %3 tokens, a vocabulary of %4.</source>
        <translation>%1：%2 篇文档，%3 个词元，词表大小 %4。</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) longer than the context were cut.</source>
        <translation>
            <numerusform>有 %n 篇文档超过上下文长度，已被截断。</numerusform>
        </translation>
    </message>
    <message>
        <source>The current language model and its unsaved training will be discarded.</source>
        <translation>当前的语言模型及其未保存的训练将被丢弃。</translation>
    </message>
    <message>
        <source>Train a New Language Model?</source>
        <translation>训练一个新的语言模型？</translation>
    </message>
    <message>
        <source>Open a Language Model?</source>
        <translation>打开一个语言模型？</translation>
    </message>
    <message>
        <source>Open Language Model</source>
        <translation>打开语言模型</translation>
    </message>
    <message>
        <source>Save Language Model</source>
        <translation>保存语言模型</translation>
    </message>
    <message>
        <source>Save the Language Model?</source>
        <translation>保存语言模型？</translation>
    </message>
    <message>
        <source>The language model has unsaved training.</source>
        <translation>语言模型有未保存的训练。</translation>
    </message>
    <message>
        <source>Building the model…</source>
        <translation>正在构建模型…</translation>
    </message>
    <message>
        <source>Language model: %1</source>
        <translation>语言模型：%1</translation>
    </message>
    <message>
        <source>A setup saved from AttnLab: say here what the class should look for.</source>
        <translation>从 AttnLab 保存的设置：请在这里写明课堂上应观察什么。</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open a Text</source>
        <translation>打开文本</translation>
    </message>
    <message>
        <source>Text files (*.txt *.text *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.text *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>GPT, %1 layers × %2 heads</source>
        <translation>GPT，%1 层 × %2 个头</translation>
    </message>
    <message>
        <source>no text</source>
        <translation>没有文本</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>A GPT-style language model learns to predict the next token; on repeated sequences an induction head forms in front of you.</source>
        <translation>一个 GPT 式语言模型学习预测下一个词元；在重复序列上，归纳头会在你眼前形成。</translation>
    </message>
    <message>
        <source>A lesson of this task reads a built-in text (repeats, gettext or fortunes).</source>
        <translation>这个任务的课程读取内置文本（repeats、gettext 或 fortunes）。</translation>
    </message>
    <message>
        <source>Open Hugging Face Folder…</source>
        <translation>打开 Hugging Face 文件夹…</translation>
    </message>
    <message>
        <source>Open a GPT-2 model folder downloaded from Hugging Face (config.json, model.safetensors, vocab.json and merges.txt or tokenizer.json).</source>
        <translation>打开从 Hugging Face 下载的 GPT-2 模型文件夹（config.json、model.safetensors、vocab.json 和 merges.txt 或 tokenizer.json）。</translation>
    </message>
    <message>
        <source>Open a Hugging Face Model Folder</source>
        <translation>打开 Hugging Face 模型文件夹</translation>
    </message>
    <message>
        <source>Open from the Hugging Face Cache</source>
        <translation>从 Hugging Face 缓存打开</translation>
    </message>
    <message>
        <source>No models in %1</source>
        <translation>%1 中没有模型</translation>
    </message>
</context>
<context>
    <name>attnlab::LongRangePage</name>
    <message>
        <source>lengths: &apos;%1&apos; is not a length between 8 and 65536</source>
        <translation>长度：“%1”不是 8 到 65536 之间的长度</translation>
    </message>
    <message>
        <source>lengths: give at least one length, e.g. 128, 512, 2048</source>
        <translation>长度：请至少给出一个长度，例如 128, 512, 2048</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Words per text. Each pattern&apos;s model trains at these lengths in order, each going on from the weights of the one before.</source>
        <translation>每段文本的词数。每种模式的模型按顺序在这些长度上训练，每次都从前一个长度的权重继续。</translation>
    </message>
    <message>
        <source>Lengths N:</source>
        <translation>长度 N：</translation>
    </message>
    <message>
        <source>Patterns:</source>
        <translation>模式：</translation>
    </message>
    <message>
        <source>Adam steps of 4 texts at each listed length.</source>
        <translation>在每个列出的长度上以每批 4 段文本进行的 Adam 步数。</translation>
    </message>
    <message>
        <source>Steps per length:</source>
        <translation>每个长度的步数：</translation>
    </message>
    <message>
        <source>Go on doubling N</source>
        <translation>继续倍增 N</translation>
    </message>
    <message>
        <source>After the last length, double N while the pattern&apos;s training step fits the memory budget.</source>
        <translation>在最后一个长度之后，只要该模式的训练步骤不超出内存预算，就继续将 N 翻倍。</translation>
    </message>
    <message>
        <source>Steps at each doubled length (the model already knows the task by then).</source>
        <translation>每个倍增长度上的步数（此时模型已经掌握了任务）。</translation>
    </message>
    <message>
        <source>Steps per doubling:</source>
        <translation>每次倍增的步数：</translation>
    </message>
    <message>
        <source>The doubling stops here at the latest.</source>
        <translation>倍增最迟在此停止。</translation>
    </message>
    <message>
        <source>Up to N =</source>
        <translation>最大 N =</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>The most a training step may allocate. A length predicted to need more is not run, and one that tries to is stopped: nothing is left to the system&apos;s out-of-memory killer.</source>
        <translation>一个训练步骤最多可分配的内存。预计需要更多内存的长度不会运行，试图超出的长度会被停止：不会交给系统的内存不足终止程序（OOM killer）处理。</translation>
    </message>
    <message>
        <source>Memory budget:</source>
        <translation>内存预算：</translation>
    </message>
    <message>
        <source>Validation texts per length, for the accuracy.</source>
        <translation>每个长度用于计算准确率的验证文本数。</translation>
    </message>
    <message>
        <source>Validation texts:</source>
        <translation>验证文本数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Train every pattern at every length (stops another running experiment)</source>
        <translation>在每个长度上训练每种模式（会停止另一个正在运行的实验）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Accuracy against text length</source>
        <translation>准确率随文本长度的变化</translation>
    </message>
    <message>
        <source>words N (log scale)</source>
        <translation>词数 N（对数刻度）</translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Peak memory per step</source>
        <translation>每步峰值内存</translation>
    </message>
    <message>
        <source>MB (log scale)</source>
        <translation>MB（对数刻度）</translation>
    </message>
    <message>
        <source>budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Complexity</source>
        <translation>复杂度</translation>
    </message>
    <message>
        <source>Articles&apos; N</source>
        <translation>文章中的 N</translation>
    </message>
    <message>
        <source>Longest N here</source>
        <translation>此处最长 N</translation>
    </message>
    <message>
        <source>Accuracy there</source>
        <translation>该处准确率</translation>
    </message>
    <message>
        <source>CPU per step</source>
        <translation>每步 CPU 时间</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>The longest sequence the articles&apos; table gives for this kind of attention</source>
        <translation>文章表格中这种注意力所给出的最长序列</translation>
    </message>
    <message>
        <source>The median CPU time of a training step there, all threads</source>
        <translation>该处一个训练步的 CPU 时间中位数（所有线程）</translation>
    </message>
    <message>
        <source>The articles&apos; table (pattern, complexity, the longest sequence it handles) beside this machine&apos;s: the longest N whose training step fitted the budget, the accuracy reached there, the median CPU time of a step (all threads; wall time would count other programs too) and its peak memory.</source>
        <translation>文章的表格（模式、复杂度、可处理的最长序列）与本机结果对照：训练步未超出预算的最长 N、在该长度上达到的准确率、一个训练步的 CPU 时间中位数（所有线程；挂钟时间也会计入其他程序）及其峰值内存。</translation>
    </message>
    <message>
        <source>&lt;b&gt;What to look for.&lt;/b&gt; Full attention&apos;s memory grows as N², so it is the first to hit the budget; strided and chunked grow as N√N and go further; local and linear grow as N and go furthest. But reach is not accuracy: [CLS] must find the one colour word wherever it is. Local attention sees only a window around [CLS] (two layers: 2W words), so its accuracy falls toward chance (0.25) as N grows; strided, chunked and linear attention reach every word in two layers and find it as full attention does, at a fraction of its memory.</source>
        <translation>&lt;b&gt;观察要点。&lt;/b&gt;完全注意力的内存按 N² 增长，因此最先达到预算；跨步注意力和分块注意力按 N√N 增长，能走得更远；局部注意力和线性注意力按 N 增长，走得最远。但能处理的长度不等于准确率：[CLS] 必须找到那个颜色词，无论它在哪里。局部注意力只能看到 [CLS] 周围的一个窗口（两层：2W 个词），因此随着 N 增大，其准确率会降向随机水平（0.25）；跨步、分块和线性注意力在两层内能够到每个词，能像完全注意力一样找到它，而内存只需它的一小部分。</translation>
    </message>
    <message>
        <source>Press Run: each pattern trains at each length in turn, and its points appear as they are measured (a few minutes with the defaults).</source>
        <translation>按“运行”：每种模式依次在每个长度上训练，各点在测得后即显示（使用默认设置需几分钟）。</translation>
    </message>
    <message>
        <source>Stopping after the current training step…</source>
        <translation>将在当前训练步结束后停止…</translation>
    </message>
    <message>
        <source>choose at least one pattern</source>
        <translation>请至少选择一种模式</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Generating the texts and training the first pattern…</source>
        <translation>正在生成文本并训练第一种模式…</translation>
    </message>
    <message>
        <source>budget %1 MB</source>
        <translation>预算 %1 MB</translation>
    </message>
    <message>
        <source> (budget)</source>
        <translation> （预算）</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n row(s); the chart shows the measured ones.</source>
        <translation>
            <numerusform>已在完成 %n 行后停止；图表显示已测得的结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>Done in %1. Longest N within the budget: %2.</source>
        <translation>完成，用时 %1。预算内的最长 N：%2。</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Long-range experiment</source>
        <translation>长程实验</translation>
    </message>
</context>
<context>
    <name>attnlab::MainWindow</name>
    <message>
        <source>Setup</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>%1[*] — AttnLab</source>
        <translation>%1[*] — AttnLab</translation>
    </message>
    <message>
        <source>About AttnLab</source>
        <translation>关于 AttnLab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;AttnLab %1&lt;/h3&gt;&lt;p&gt;Train small sequence-to-sequence models on a small parallel corpus, type a sentence, and watch attention heatmaps, every head and the training curves update live.&lt;/p&gt;&lt;p&gt;Revision %2 · Qt %3&lt;/p&gt;</source>
        <translation>&lt;h3&gt;AttnLab %1&lt;/h3&gt;&lt;p&gt;在小型平行语料上训练小型序列到序列模型，输入一个句子，实时观看注意力热力图、每个注意力头和训练曲线的变化。&lt;/p&gt;&lt;p&gt;修订版本 %2 · Qt %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>AttnLab will use the new language the next time it starts.</source>
        <translation>AttnLab 将在下次启动时使用新的语言。</translation>
    </message>
    <message>
        <source>Hide the lesson card</source>
        <translation>隐藏课程卡片</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>What you work on: its data, models and views.</source>
        <translation>当前的任务：决定所用的数据、模型和视图。</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>%1: task: this AttnLab has no %2 task.</source>
        <translation>%1：task：此 AttnLab 没有 %2 任务。</translation>
    </message>
    <message>
        <source>Cannot Save Lesson</source>
        <translation>无法保存课程</translation>
    </message>
    <message>
        <source>Saved the setup as the lesson %1.</source>
        <translation>已将当前设置保存为课程 %1。</translation>
    </message>
    <message>
        <source>Open Lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>AttnLab lessons (*.json);;All files (*)</source>
        <translation>AttnLab 课程 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Setup as Lesson</source>
        <translation>将设置保存为课程</translation>
    </message>
    <message>
        <source>AttnLab lessons (*.json)</source>
        <translation>AttnLab 课程 (*.json)</translation>
    </message>
</context>
<context>
    <name>attnlab::MathsView</name>
    <message>
        <source>Type a sentence and press Enter to see how its attention is computed</source>
        <translation>输入一个句子并按回车，查看它的注意力是如何计算的</translation>
    </message>
    <message>
        <source>The sentence to translate; the steps below belong to one token of its translation.</source>
        <translation>要翻译的句子；下面的步骤针对其译文中的某一个词元。</translation>
    </message>
    <message>
        <source>Show Steps</source>
        <translation>显示步骤</translation>
    </message>
    <message>
        <source>Translate the sentence and show the steps for its first output token (Enter).</source>
        <translation>翻译该句子，并显示其第一个输出词元的计算步骤（回车）。</translation>
    </message>
    <message>
        <source>Output token:</source>
        <translation>输出词元：</translation>
    </message>
    <message>
        <source>The token whose attention is computed below: one row of the heatmap.</source>
        <translation>下面计算的就是这个词元的注意力：对应热力图中的一行。</translation>
    </message>
    <message>
        <source>Cross-attention (decoder → encoder)</source>
        <translation>交叉注意力（解码器 → 编码器）</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Which attention of the Transformer to take apart.</source>
        <translation>要拆解 Transformer 的哪一种注意力。</translation>
    </message>
    <message>
        <source>The layer, counted from 0 at the bottom.</source>
        <translation>层，从最底层开始以 0 计数。</translation>
    </message>
    <message>
        <source>The head of that layer: each head scores with its own Q, K and V.</source>
        <translation>该层中的注意力头：每个注意力头都用自己的 Q、K 和 V 打分。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>注意力头：</translation>
    </message>
    <message>
        <source>Click a token to take its attention apart.</source>
        <translation>单击一个词元，拆解它的注意力。</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>From scores to weights</source>
        <translation>从分数到权重</translation>
    </message>
    <message>
        <source>From weights to the context vector</source>
        <translation>从权重到上下文向量</translation>
    </message>
    <message>
        <source>Type a sentence first.</source>
        <translation>请先输入一个句子。</translation>
    </message>
    <message>
        <source>Start training or open a model, then type a sentence: this view takes the attention of one output token apart, step by step, with the model&apos;s own numbers.</source>
        <translation>开始训练或打开一个模型，然后输入一个句子：此视图会用模型自己的数值，一步一步地拆解一个输出词元的注意力。</translation>
    </message>
    <message>
        <source>Type a sentence above and press Enter.</source>
        <translation>在上方输入一个句子并按回车。</translation>
    </message>
    <message>
        <source>Query token:</source>
        <translation>查询词元：</translation>
    </message>
    <message>
        <source>source token “%1”, as the layer below left it,</source>
        <translation>经下一层处理后的源词元“%1”</translation>
    </message>
    <message>
        <source>the decoder&apos;s state at this position (it reads “%1” and predicts “%2”)</source>
        <translation>解码器在此位置的状态（它读入“%1”并预测“%2”）</translation>
    </message>
    <message>
        <source>the state of every decoder position</source>
        <translation>每个解码器位置的状态</translation>
    </message>
    <message>
        <source>every source token</source>
        <translation>每个源词元</translation>
    </message>
    <message>
        <source>the encoder&apos;s output for every source token</source>
        <translation>编码器对每个源词元的输出</translation>
    </message>
    <message>
        <source>Head %1 turns %2 into a query q, and %3 into a key k_j, each with its own learned matrix. The score is the dot product q · k_j: large when the query and the key point the same way.</source>
        <translation>注意力头 %1 把%2变换为查询 q，把%3变换为键 k_j，两者各用一个学到的矩阵。分数是点积 q · k_j：查询和键的方向越一致，分数越大。</translation>
    </message>
    <message>
        <source>The score is the dot product of the decoder state s (what the decoder knows before writing “%1”) with each encoder state h_j: large when they point the same way.</source>
        <translation>分数是解码器状态 s（解码器写出“%1”之前所掌握的信息）与每个编码器状态 h_j 的点积：两者方向越一致，分数越大。</translation>
    </message>
    <message>
        <source>The score is the dot product of the decoder state s (what the decoder knows before writing “%1”) with W h_j, each encoder state passed through a learned matrix W.</source>
        <translation>分数是解码器状态 s（解码器写出“%1”之前所掌握的信息）与 W h_j 的点积，即每个编码器状态先经过一个学到的矩阵 W 变换。</translation>
    </message>
    <message>
        <source>The score comes from a small learned network: v · tanh(W s + U h_j + b), where s is the decoder state before writing “%1” and h_j the encoder state of each source token.</source>
        <translation>分数由一个学到的小型网络给出：v · tanh(W s + U h_j + b)，其中 s 是写出“%1”之前的解码器状态，h_j 是每个源词元的编码器状态。</translation>
    </message>
    <message>
        <source>Score every token.</source>
        <translation>为每个词元打分。</translation>
    </message>
    <message>
        <source>Scale.</source>
        <translation>缩放。</translation>
    </message>
    <message>
        <source>Divide by √d_k = √%1, i.e. multiply by %2: without it, longer vectors would give larger scores and a softmax that picks one token too sharply.</source>
        <translation>除以 √d_k = √%1，即乘以 %2：否则向量越长，分数就越大，softmax 会过于尖锐地只挑出一个词元。</translation>
    </message>
    <message>
        <source>Divide by √H = √%1, i.e. multiply by %2, so that the scores do not grow with the size of the vectors.</source>
        <translation>除以 √H = √%1，即乘以 %2，使分数不会随向量维度的增大而变大。</translation>
    </message>
    <message>
        <source>Attention “%1” does not scale its scores: the factor is 1.</source>
        <translation>注意力“%1”不对分数进行缩放：缩放因子为 1。</translation>
    </message>
    <message>
        <source>Local attention only looks near the centre p_t = %1 (the output position): tokens further than D = %2 from it get −∞.</source>
        <translation>局部注意力只看中心 p_t = %1（即输出位置）附近：与中心距离超过 D = %2 的词元得到 −∞。</translation>
    </message>
    <message>
        <source>Local attention predicts a centre p_t = %1 from s and only looks within D = %2 of it; tokens outside get −∞, and those inside lose (j − p_t)² / (2 (D/2)²), which favours the centre.</source>
        <translation>局部注意力根据 s 预测一个中心 p_t = %1，只看与它距离在 D = %2 以内的词元；窗口外的词元得到 −∞，窗口内的词元要减去 (j − p_t)² / (2 (D/2)²)，从而偏向中心。</translation>
    </message>
    <message>
        <source>A decoder position must not look ahead at tokens that are not written yet: later positions get −∞ (the causal mask).</source>
        <translation>解码器的位置不能提前看到尚未写出的词元：其后的位置都得到 −∞（因果掩码）。</translation>
    </message>
    <message>
        <source>Padding would get −∞ here; one sentence alone has no padding, so every token is kept.</source>
        <translation>填充（padding）位置在这里会得到 −∞；单独一个句子没有填充，所以每个词元都保留。</translation>
    </message>
    <message>
        <source>Mask.</source>
        <translation>掩码。</translation>
    </message>
    <message>
        <source>−∞ means: weight exactly 0.</source>
        <translation>−∞ 表示：权重恰好为 0。</translation>
    </message>
    <message>
        <source>Softmax.</source>
        <translation>Softmax。</translation>
    </message>
    <message>
        <source>a_j = exp(score_j) / Σ_k exp(score_k) turns the scores into weights between 0 and 1 that add up to %1: the larger the score, the larger its share.</source>
        <translation>a_j = exp(score_j) / Σ_k exp(score_k) 把分数变成 0 到 1 之间、总和为 %1 的权重：分数越大，所占的份额越大。</translation>
    </message>
    <message>
        <source>First %1 of %2 numbers shown.</source>
        <translation>仅显示 %2 个数中的前 %1 个。</translation>
    </message>
    <message>
        <source>Head output = weighted sum.</source>
        <translation>注意力头输出 = 加权和。</translation>
    </message>
    <message>
        <source>Each token&apos;s value vector v_j is multiplied by its weight and the results are added: Σ a_j v_j. The outputs of all heads are joined and projected to give the layer&apos;s result.</source>
        <translation>每个词元的值向量 v_j 乘以它的权重，再把结果相加：Σ a_j v_j。所有注意力头的输出拼接起来并经过投影，得到该层的结果。</translation>
    </message>
    <message>
        <source>Context vector = weighted sum.</source>
        <translation>上下文向量 = 加权和。</translation>
    </message>
    <message>
        <source>Each encoder state h_j is multiplied by its weight and the results are added: c = Σ a_j h_j. The decoder reads c to choose “%1”.</source>
        <translation>每个编码器状态 h_j 乘以它的权重，再把结果相加：c = Σ a_j h_j。解码器读取 c 来选出“%1”。</translation>
    </message>
    <message>
        <source>Query of head %1 at this position: q = %2</source>
        <translation>注意力头 %1 在此位置的查询：q = %2</translation>
    </message>
    <message>
        <source>Decoder state before this token: s = %1</source>
        <translation>写出此词元之前的解码器状态：s = %1</translation>
    </message>
    <message>
        <source>Decoder input</source>
        <translation>解码器输入</translation>
    </message>
    <message>
        <source>Source token</source>
        <translation>源词元</translation>
    </message>
    <message>
        <source>1. Score
%1</source>
        <translation>1. 分数
%1</translation>
    </message>
    <message>
        <source>2. Scaled
× %1</source>
        <translation>2. 缩放后
× %1</translation>
    </message>
    <message>
        <source>3. Mask</source>
        <translation>3. 掩码</translation>
    </message>
    <message>
        <source>Softmax input
= 2 + 3</source>
        <translation>Softmax 输入
= 2 + 3</translation>
    </message>
    <message>
        <source>4. Weight a_j</source>
        <translation>4. 权重 a_j</translation>
    </message>
    <message>
        <source>The raw score of each token.</source>
        <translation>每个词元的原始分数。</translation>
    </message>
    <message>
        <source>The score times the scale factor.</source>
        <translation>分数乘以缩放因子。</translation>
    </message>
    <message>
        <source>What the mask adds: 0 to keep a token, −∞ to exclude it (local-p: the Gaussian penalty).</source>
        <translation>掩码加上的值：0 表示保留该词元，−∞ 表示排除它（local-p：高斯惩罚项）。</translation>
    </message>
    <message>
        <source>The number the softmax sees.</source>
        <translation>softmax 实际接收的数值。</translation>
    </message>
    <message>
        <source>The attention weight: this row of the heatmap.</source>
        <translation>注意力权重：即热力图中的这一行。</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>kept, with the Gaussian penalty −(j − p_t)² / (2 (D/2)²)</source>
        <translation>保留，并加上高斯惩罚项 −(j − p_t)² / (2 (D/2)²)</translation>
    </message>
    <message>
        <source>−∞ padding</source>
        <translation>−∞ 填充</translation>
    </message>
    <message>
        <source>−∞ outside the window</source>
        <translation>−∞ 窗口之外</translation>
    </message>
    <message>
        <source>−∞ not written yet</source>
        <translation>−∞ 尚未写出</translation>
    </message>
    <message>
        <source>Weight a_j</source>
        <translation>权重 a_j</translation>
    </message>
    <message>
        <source>head output Σ a_j v_j</source>
        <translation>注意力头输出 Σ a_j v_j</translation>
    </message>
    <message>
        <source>context c = Σ a_j h_j</source>
        <translation>上下文 c = Σ a_j h_j</translation>
    </message>
    <message>
        <source>Step by Step</source>
        <translation>逐步计算</translation>
    </message>
    <message>
        <source>How one output token&apos;s attention is computed, with the model&apos;s numbers.</source>
        <translation>用模型的实际数值，展示一个输出词元的注意力是如何计算的。</translation>
    </message>
    <message>
        <source>This model queries after: s has already read the previous output token (Luong&apos;s order), and the output layer reads s together with the context c.</source>
        <translation>该模型在读入之后查询：s 已经读过上一个输出词（Luong 的顺序），输出层同时读取 s 和上下文 c。</translation>
    </message>
    <message>
        <source>Decoder state after reading the previous token: s = %1</source>
        <translation>读入上一个词之后的解码器状态：s = %1</translation>
    </message>
</context>
<context>
    <name>attnlab::ModelSettingsWidget</name>
    <message>
        <source>GRU encoder–decoder</source>
        <translation>GRU 编码器–解码器</translation>
    </message>
    <message>
        <source>Transformer</source>
        <translation>Transformer</translation>
    </message>
    <message>
        <source>A recurrent model with one attention map, or a Transformer with many heads in every layer.</source>
        <translation>只有一张注意力图的循环神经网络模型，或每层都有多个注意力头的 Transformer。</translation>
    </message>
    <message>
        <source>none (fixed context vector)</source>
        <translation>无（固定上下文向量）</translation>
    </message>
    <message>
        <source>dot (Luong)</source>
        <translation>点积（Luong）</translation>
    </message>
    <message>
        <source>general (Luong)</source>
        <translation>通用（Luong）</translation>
    </message>
    <message>
        <source>scaled dot</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>additive (Bahdanau)</source>
        <translation>加性（Bahdanau）</translation>
    </message>
    <message>
        <source>local-m (Luong, monotonic)</source>
        <translation>local-m（Luong，单调对齐）</translation>
    </message>
    <message>
        <source>local-p (Luong, predictive)</source>
        <translation>local-p（Luong，预测对齐）</translation>
    </message>
    <message>
        <source>How the GRU decoder scores source positions; &apos;none&apos; squeezes the whole sentence into one vector.</source>
        <translation>GRU 解码器为各个源位置打分的方式；“无”会把整个句子压缩成一个向量。</translation>
    </message>
    <message>
        <source>Half-width D of the window that local attention looks at around its position.</source>
        <translation>局部注意力在其位置周围所看窗口的半宽 D。</translation>
    </message>
    <message>
        <source>Bidirectional encoder</source>
        <translation>双向编码器</translation>
    </message>
    <message>
        <source>Width of the hidden states (d_model of a Transformer); larger learns more but trains slower.</source>
        <translation>隐藏状态的宽度（Transformer 的 d_model）；越大学得越多，但训练越慢。</translation>
    </message>
    <message>
        <source>Stacked GRU layers, or Transformer layers in the encoder and in the decoder each.</source>
        <translation>堆叠的 GRU 层数，或 Transformer 编码器和解码器各自的层数。</translation>
    </message>
    <message>
        <source>Attention heads per Transformer layer; only divisors of the hidden size are offered.</source>
        <translation>每个 Transformer 层的注意力头数；只提供能整除隐藏层大小的数值。</translation>
    </message>
    <message>
        <source>Width of the feed-forward block inside every Transformer layer.</source>
        <translation>每个 Transformer 层内前馈模块的宽度。</translation>
    </message>
    <message>
        <source>Share of activations randomly zeroed while training, against overfitting.</source>
        <translation>训练时随机置零的激活值比例，用于防止过拟合。</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Pairs longer than this are skipped; it also sizes the Transformer&apos;s positional table.</source>
        <translation>超过此长度的句对会被跳过；它同时决定 Transformer 位置编码表的大小。</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>Window D:</source>
        <translation>窗口 D：</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>注意力头数：</translation>
    </message>
    <message>
        <source>Feed-forward:</source>
        <translation>前馈层宽度：</translation>
    </message>
    <message>
        <source>Dropout:</source>
        <translation>丢弃率 (Dropout)：</translation>
    </message>
    <message>
        <source>Max length:</source>
        <translation>最大长度：</translation>
    </message>
    <message>
        <source>Load a corpus to see the model&apos;s size.</source>
        <translation>加载语料后即可看到模型的大小。</translation>
    </message>
    <message>
        <source>About %1 parameters with this corpus.</source>
        <translation>使用此语料时约有 %1 个参数。</translation>
    </message>
    <message>
        <source>The GRU encoder reads the sentence in both directions, so every position knows its right context too. On by default: measured over five seeds, its attention points at the right words far more often.</source>
        <translation>GRU 编码器从两个方向读句子，每个位置也知道右侧的上下文。默认开启：在五个随机种子上测得，它的注意力指向正确词语的频率高得多。</translation>
    </message>
    <message>
        <source>after reading the last word (Luong)</source>
        <translation>读入上一个词之后（Luong）</translation>
    </message>
    <message>
        <source>before reading the last word (Bahdanau)</source>
        <translation>读入上一个词之前（Bahdanau）</translation>
    </message>
    <message>
        <source>Which decoder state asks where to look: the one that has already read the previous output word (Luong) or the one before it (Bahdanau). &apos;After&apos; is the default: over five seeds its maps matched the gold word links best.</source>
        <translation>由哪个解码器状态决定看向哪里：已经读过上一个输出词的状态（Luong），或读入之前的状态（Bahdanau）。默认为“之后”：在五个随机种子上，它的注意力图与标准词对齐最吻合。</translation>
    </message>
    <message>
        <source>embeddings and attention weights</source>
        <translation>词向量和注意力权重</translation>
    </message>
    <message>
        <source>embeddings only</source>
        <translation>仅词向量</translation>
    </message>
    <message>
        <source>attention weights only</source>
        <translation>仅注意力权重</translation>
    </message>
    <message>
        <source>Query:</source>
        <translation>查询：</translation>
    </message>
    <message>
        <source>Dropout on:</source>
        <translation>Dropout 作用于：</translation>
    </message>
    <message>
        <source>Where the GRU model&apos;s dropout applies. Embeddings only is the default: over five seeds, dropping attention weights too blurred the maps without gaining accuracy.</source>
        <translation>GRU 模型的 dropout 作用在哪里。默认仅作用于词向量：在五个随机种子上，同时丢弃注意力权重会使注意力图变模糊，而准确率并无提高。</translation>
    </message>
    <message>
        <source>full</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>local window</source>
        <translation>局部窗口</translation>
    </message>
    <message>
        <source>strided</source>
        <translation>跨步</translation>
    </message>
    <message>
        <source>chunked</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>linear (kernelised)</source>
        <translation>线性（核化）</translation>
    </message>
    <message>
        <source>Which keys the Transformer&apos;s self-attention looks at. Full: all of them. Local: those within D of the position (the decoder: the D before it). Strided: that band and every s-th key. Chunked: its own chunk and one summary of every other chunk. Linear: all, through a kernel instead of a softmax, in time linear in the length. Cross-attention stays full.</source>
        <translation>Transformer 的自注意力看哪些键。全部：所有键。局部：与该位置相距 D 以内的键（解码器：它之前的 D 个）。跨步：这一带再加每隔 s 个的键。分块：自己所在的块，以及其他每个块的一个摘要。线性：全部键，但用核函数代替 softmax，时间与长度成线性。交叉注意力保持全部。</translation>
    </message>
    <message>
        <source>automatic (square root of the max length)</source>
        <translation>自动（最大长度的平方根）</translation>
    </message>
    <message>
        <source>The chunk size of the chunked pattern, or the stride s of the strided one.</source>
        <translation>分块模式的块大小，或跨步模式的步长 s。</translation>
    </message>
    <message>
        <source>Attention pattern:</source>
        <translation>注意力模式：</translation>
    </message>
    <message>
        <source>Chunk:</source>
        <translation>块：</translation>
    </message>
</context>
<context>
    <name>attnlab::NeedleView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>text lengths: &apos;%1&apos; is not a number of words from %2 to %3</source>
        <translation>文本长度：“%1”不是 %2 到 %3 之间的词数</translation>
    </message>
    <message>
        <source>text lengths: give at least one length in words, e.g. 25, 50, 100</source>
        <translation>文本长度：请至少给出一个以词计的长度，例如 25, 50, 100</translation>
    </message>
    <message>
        <source>&lt;b&gt;Can attention find a needle?&lt;/b&gt; Each text is a run of noise words with one keyword somewhere that decides its class. A one-way GRU that classifies from its last state must carry that keyword to the end of the text, and the longer the text the more often it forgets it; attention pooling weighs every word and can read the keyword where it is, so its accuracy should hold up as the texts grow.</source>
        <translation>&lt;b&gt;注意力能大海捞针吗？&lt;/b&gt;每条文本都由一串噪声词组成，其中某处有一个决定其类别的关键词。只凭最后一个状态分类的单向 GRU 必须把这个关键词一直带到文本末尾，文本越长，它就越常忘记；注意力池化为每个词加权，可以在关键词所在的位置直接读取它，因此随着文本变长，它的准确率应当能保持住。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Words per text, the keyword included; each length gets its own texts and models.</source>
        <translation>每条文本的词数（含关键词）；每个长度都有各自的文本和模型。</translation>
    </message>
    <message>
        <source>Text lengths:</source>
        <translation>文本长度：</translation>
    </message>
    <message>
        <source>Texts generated per length; 10% are held out for the accuracy.</source>
        <translation>每个长度生成的文本数；其中 10% 留出，用于计算准确率。</translation>
    </message>
    <message>
        <source>Texts per length:</source>
        <translation>每个长度的文本数：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Train one classifier per length and pooling and chart their validation accuracy</source>
        <translation>为每个长度和每种池化方式各训练一个分类器，并绘制它们的验证准确率</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop after the current batch; the trainings finished so far are charted</source>
        <translation>在当前批次结束后停止；已完成的训练会绘制在图表中</translation>
    </message>
    <message>
        <source>Accuracy against text length: attention pooling vs the last state</source>
        <translation>准确率随文本长度的变化：注意力池化对比最后一个状态</translation>
    </message>
    <message>
        <source>text length (words)</source>
        <translation>文本长度（词）</translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Press Run: the models are trained one after another, and the chart fills in when they are done (minutes with the defaults).</source>
        <translation>请按“运行”：各个模型依次训练，训练完成后图表中就会出现结果（使用默认设置需要几分钟）。</translation>
    </message>
    <message>
        <source>Last state (no attention)</source>
        <translation>最后一个状态（无注意力）</translation>
    </message>
    <message>
        <source>Additive attention</source>
        <translation>加性注意力</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Generating the texts and training the first model…</source>
        <translation>正在生成文本并训练第一个模型…</translation>
    </message>
    <message>
        <source>Stopping after the current batch…</source>
        <translation>将在当前批次结束后停止…</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · 约剩 %1</translation>
    </message>
    <message>
        <source> (keyword in the first half %1%, in the second half %2%)</source>
        <translation>（关键词在前半段时 %1%，在后半段时 %2%）</translation>
    </message>
    <message>
        <source>At %1 words: %2.</source>
        <translation>长度为 %1 个词时：%2。</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n training(s); the chart shows the finished ones.</source>
        <translation>
            <numerusform>已在完成 %n 次训练后停止；图表显示已完成的结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>Done in %1.</source>
        <translation>完成，用时 %1。</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Needle</source>
        <translation>needle 实验</translation>
    </message>
    <message>
        <source>Does attention pooling find one keyword in a long text that a GRU&apos;s last state forgets?</source>
        <translation>在长文本中，GRU 的最后一个状态会遗忘的那个关键词，注意力池化能找到吗？</translation>
    </message>
    <message>
        <source>the needle chart is exported as PNG, SVG or PDF</source>
        <translation>needle 图表只能导出为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>run the needle experiment first: its chart has no points yet</source>
        <translation>请先运行 needle 实验：图表中还没有数据点</translation>
    </message>
    <message>
        <source>Needle experiment</source>
        <translation>needle 实验</translation>
    </message>
</context>
<context>
    <name>attnlab::PositionalEncodingView</name>
    <message>
        <source>How many positions (rows) to show, from 0.</source>
        <translation>要显示多少个位置（行），从 0 开始。</translation>
    </message>
    <message>
        <source>d_model: the width of the vectors, one column per dimension.</source>
        <translation>d_model：向量的宽度，每一维占一列。</translation>
    </message>
    <message>
        <source>Use the model&apos;s</source>
        <translation>使用模型的值</translation>
    </message>
    <message>
        <source>Show the table of the Transformer that is loaded or training.</source>
        <translation>显示已加载或正在训练的 Transformer 所用的位置编码表。</translation>
    </message>
    <message>
        <source>Positions:</source>
        <translation>位置数：</translation>
    </message>
    <message>
        <source>d_model:</source>
        <translation>d_model：</translation>
    </message>
    <message>
        <source>&lt;b&gt;PE&lt;/b&gt;(pos, 2i) = sin(pos / 10000&lt;sup&gt;2i / d&lt;/sup&gt;) &amp;nbsp;&amp;nbsp; &lt;b&gt;PE&lt;/b&gt;(pos, 2i+1) = cos(pos / 10000&lt;sup&gt;2i / d&lt;/sup&gt;)&lt;br&gt;Each position gets one vector, added to its token&apos;s embedding. Dimension pair i turns at its own speed: the left columns change from one position to the next, the right ones over thousands of positions, like the hands of a clock.</source>
        <translation>&lt;b&gt;PE&lt;/b&gt;(pos, 2i) = sin(pos / 10000&lt;sup&gt;2i / d&lt;/sup&gt;) &amp;nbsp;&amp;nbsp; &lt;b&gt;PE&lt;/b&gt;(pos, 2i+1) = cos(pos / 10000&lt;sup&gt;2i / d&lt;/sup&gt;)&lt;br&gt;每个位置对应一个向量，加到该位置词元的嵌入上。第 i 对维度以各自的速度旋转：左侧的列在相邻位置之间就会变化，右侧的列则要经过数千个位置才变化，就像时钟的指针一样。</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>Encoding: one row per position</source>
        <translation>编码：每个位置一行</translation>
    </message>
    <message>
        <source>Blue −1, white 0, red +1. Hover a cell for its value.</source>
        <translation>蓝色 −1，白色 0，红色 +1。鼠标悬停在单元格上可查看其数值。</translation>
    </message>
    <message>
        <source>Cosine similarity between positions</source>
        <translation>位置之间的余弦相似度</translation>
    </message>
    <message>
        <source>Every diagonal has one colour: the similarity of two positions depends only on their distance, so attention can learn “the word two to the left” once for every position.</source>
        <translation>每条对角线都是同一种颜色：两个位置的相似度只取决于它们之间的距离，因此注意力只需学一次“左边第二个词”，就能适用于所有位置。</translation>
    </message>
    <message>
        <source>The current Transformer has d_model = %1.</source>
        <translation>当前 Transformer 的 d_model = %1。</translation>
    </message>
    <message>
        <source>No Transformer loaded: showing d_model = %1.</source>
        <translation>未加载 Transformer：显示 d_model = %1 时的情况。</translation>
    </message>
    <message>
        <source>%1 positions × %2 dimensions</source>
        <translation>%1 个位置 × %2 维</translation>
    </message>
    <message>
        <source>cos(PE(p), PE(q)), d_model = %1</source>
        <translation>cos(PE(p), PE(q))，d_model = %1</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>The Transformer&apos;s sinusoidal positional encoding and how alike positions are.</source>
        <translation>Transformer 的正弦位置编码，以及各位置之间的相似程度。</translation>
    </message>
</context>
<context>
    <name>attnlab::PositionalPage</name>
    <message>
        <source>lengths: &apos;%1&apos; is not a length between 2 and 100</source>
        <translation>长度：“%1”不是 2 到 100 之间的长度</translation>
    </message>
    <message>
        <source>lengths: give at least one length, e.g. 8, 16, 32</source>
        <translation>长度：请至少给出一个长度，例如 8, 16, 32</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <source>no positions</source>
        <translation>无位置</translation>
    </message>
    <message>
        <source>GRU + attention</source>
        <translation>GRU + 注意力</translation>
    </message>
    <message>
        <source>Transformer, sinusoidal positions</source>
        <translation>Transformer，正弦位置编码</translation>
    </message>
    <message>
        <source>Transformer, learned positions</source>
        <translation>Transformer，可学习位置编码</translation>
    </message>
    <message>
        <source>Transformer, no positions</source>
        <translation>Transformer，无位置编码</translation>
    </message>
    <message>
        <source>GRU with attention</source>
        <translation>带注意力的 GRU</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>reverse needs every letter&apos;s position; sort needs none (its answer is the same for any order of the input), a control.</source>
        <translation>reverse（反转）需要每个字母的位置；sort（排序）则完全不需要（无论输入顺序如何，其答案都相同），作为对照。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Sequence lengths in tokens; each gets its own corpus and its own models.</source>
        <translation>以词元计的序列长度；每个长度都有各自的语料和各自的模型。</translation>
    </message>
    <message>
        <source>Lengths:</source>
        <translation>长度：</translation>
    </message>
    <message>
        <source>Models:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮次：</translation>
    </message>
    <message>
        <source>The GRU&apos;s hidden size and the Transformer&apos;s width (a multiple of its 4 heads).</source>
        <translation>GRU 的隐藏层大小和 Transformer 的宽度（须为其 4 个头的倍数）。</translation>
    </message>
    <message>
        <source>Hidden size:</source>
        <translation>隐藏层大小：</translation>
    </message>
    <message>
        <source>Pairs generated per length; 10% are held out for the accuracy.</source>
        <translation>每个长度生成的句对数；其中 10% 留出用于计算准确率。</translation>
    </message>
    <message>
        <source>Pairs per length:</source>
        <translation>每个长度的句对数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>完全匹配</translation>
    </message>
    <message>
        <source>token accuracy</source>
        <translation>词元准确率</translation>
    </message>
    <message>
        <source>Exact match: the share of held-out sequences output entirely right. Token accuracy: the share of output positions right.</source>
        <translation>完全匹配：留出序列中输出完全正确的比例。词元准确率：输出位置中正确的比例。</translation>
    </message>
    <message>
        <source>Chart:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Train every model at every length (stops another running experiment)</source>
        <translation>在每个长度上训练每个模型（会停止另一个正在运行的实验）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Held-out accuracy against sequence length</source>
        <translation>留出集准确率与序列长度的关系</translation>
    </message>
    <message>
        <source>sequence length (tokens)</source>
        <translation>序列长度（词元）</translation>
    </message>
    <message>
        <source>held-out exact match</source>
        <translation>留出集完全匹配率</translation>
    </message>
    <message>
        <source>Held-out exact match and token accuracy of each model at each length.</source>
        <translation>每个模型在每个长度上的留出集完全匹配率和词元准确率。</translation>
    </message>
    <message>
        <source>&lt;b&gt;What to look for.&lt;/b&gt; Self-attention by itself ignores order: without positions the encoder sees the source as a bag of letters, and reversing it is guesswork beyond what the decoder&apos;s own order gives. Sinusoidal and learned positions tell each letter where it stands. A GRU reads in order, so it knows position implicitly, but must carry it in its state. The articles claim explicit positions beat a recurrent model&apos;s implicit order by 12-18% on long sequences: compare the lines on the right.</source>
        <translation>&lt;b&gt;观察要点。&lt;/b&gt;自注意力本身不考虑顺序：没有位置信息时，编码器把源序列看作一袋字母，除了解码器自身顺序提供的信息之外，反转它只能靠猜。正弦位置编码和可学习位置编码会告诉每个字母它所处的位置。GRU 按顺序读取，因此隐式地知道位置，但必须把位置信息保存在其状态中。文章声称，在长序列上，显式位置编码比循环模型的隐式顺序高出 12-18%：请比较右侧的曲线。</translation>
    </message>
    <message>
        <source>Press Run: the models are trained one after another, and each point appears when its training ends (several minutes with the defaults).</source>
        <translation>按“运行”：模型依次训练，每个点在其训练结束时显示（使用默认设置需几分钟）。</translation>
    </message>
    <message>
        <source>Stopping after the current batch…</source>
        <translation>将在当前批次结束后停止…</translation>
    </message>
    <message>
        <source>choose at least one model</source>
        <translation>请至少选择一个模型</translation>
    </message>
    <message>
        <source>the hidden size must be a multiple of 4</source>
        <translation>隐藏层大小必须是 4 的倍数</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Generating the first corpus and training the first model…</source>
        <translation>正在生成第一个语料并训练第一个模型…</translation>
    </message>
    <message>
        <source>held-out token accuracy</source>
        <translation>留出集词元准确率</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>%1 exact · %2 tokens</source>
        <translation>完全匹配 %1 · 词元 %2</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n training(s); the chart shows the finished ones.</source>
        <translation>
            <numerusform>已在完成 %n 次训练后停止；图表显示已完成的结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>Done in %1. Exact match at %2 tokens: %3.</source>
        <translation>完成，用时 %1。%2 个词元时的完全匹配率：%3。</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Positional-encoding experiment</source>
        <translation>位置编码实验</translation>
    </message>
</context>
<context>
    <name>attnlab::ProbabilityTable</name>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
</context>
<context>
    <name>attnlab::ProbeView</name>
    <message>
        <source>A sentence to watch while the model trains</source>
        <translation>在模型训练时要观察的句子</translation>
    </message>
    <message>
        <source>The probe sentence; press Enter to watch this one instead.</source>
        <translation>探针句子；按回车改为观察这个句子。</translation>
    </message>
    <message>
        <source>every batch</source>
        <translation>每个批次</translation>
    </message>
    <message>
        <source>every 5 batches</source>
        <translation>每 5 个批次</translation>
    </message>
    <message>
        <source>every 20 batches</source>
        <translation>每 20 个批次</translation>
    </message>
    <message>
        <source>every 100 batches</source>
        <translation>每 100 个批次</translation>
    </message>
    <message>
        <source>every epoch</source>
        <translation>每轮</translation>
    </message>
    <message>
        <source>How often the probe is translated again while training runs.</source>
        <translation>训练期间重新翻译探针句子的频率。</translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>探针句子：</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Start training to watch the probe&apos;s attention form.</source>
        <translation>开始训练，观察探针句子的注意力逐渐形成。</translation>
    </message>
    <message>
        <source>Start training: the probe sentence is translated as the model learns, and its attention map is redrawn each time.</source>
        <translation>开始训练吧：模型学习的同时会翻译探针句子，并且每次都重新绘制它的注意力图。</translation>
    </message>
    <message>
        <source>(empty output)</source>
        <translation>（输出为空）</translation>
    </message>
    <message>
        <source>model opened from a file</source>
        <translation>从文件打开的模型</translation>
    </message>
    <message>
        <source>untrained model: random attention</source>
        <translation>未训练的模型：注意力是随机的</translation>
    </message>
    <message>
        <source>batches trained: %1 · epochs done: %2</source>
        <translation>已训练批次：%1 · 已完成轮次：%2</translation>
    </message>
    <message>
        <source>Live Probe</source>
        <translation>实时探针</translation>
    </message>
    <message>
        <source>Watch one sentence&apos;s attention form while the model trains.</source>
        <translation>在模型训练过程中观察一个句子的注意力逐渐形成。</translation>
    </message>
</context>
<context>
    <name>attnlab::ProjectorView</name>
    <message>
        <source>Which words does the encoder treat alike? Every word of the validation sentences is one point: its encoder state at the chosen layer, projected to two dimensions by PCA. Click a point to see its sentence and the words whose states are nearest (cosine similarity, in all dimensions).</source>
        <translation>编码器把哪些词看作相似？验证句中的每个词是一个点：它在所选层的编码器状态，用 PCA 投影到二维。点击一个点，可看到它所在的句子，以及状态与它最接近的词（余弦相似度，在全部维度上计算）。</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最后一层</translation>
    </message>
    <message>
        <source>The encoder layer whose states are projected (a GRU has one set of states).</source>
        <translation>要投影哪一层编码器的状态（GRU 只有一组状态）。</translation>
    </message>
    <message>
        <source>How many validation sentences to project.</source>
        <translation>要投影的验证句数量。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Colour by token: the eight most frequent words each a colour, the rest grey. By position: the word&apos;s place in its sentence.</source>
        <translation>按词元着色：出现最多的八个词各用一种颜色，其余为灰色。按位置着色：词在句子中的位置。</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Sentences:</source>
        <translation>句子数：</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>Encoder states, PCA</source>
        <translation>编码器状态（PCA）</translation>
    </message>
    <message>
        <source>first component</source>
        <translation>第一主成分</translation>
    </message>
    <message>
        <source>second component</source>
        <translation>第二主成分</translation>
    </message>
    <message>
        <source>Projecting…</source>
        <translation>正在投影…</translation>
    </message>
    <message>
        <source>%1 words of %2 sentences of %3, layer %4; the two components hold %5% and %6% of the variance.</source>
        <translation>%3 中 %2 个句子的 %1 个词，第 %4 层；两个主成分分别占方差的 %5% 和 %6%。</translation>
    </message>
    <message>
        <source>Click a point to see its sentence and its nearest words.</source>
        <translation>点击一个点，查看它所在的句子和最接近的词。</translation>
    </message>
    <message>
        <source>Could not project: %1</source>
        <translation>无法投影：%1</translation>
    </message>
    <message>
        <source>other words</source>
        <translation>其他词</translation>
    </message>
    <message>
        <source>position %1</source>
        <translation>位置 %1</translation>
    </message>
    <message>
        <source>position %1 and later</source>
        <translation>位置 %1 及以后</translation>
    </message>
    <message>
        <source>«%1», word %2 of “%3”. Nearest:</source>
        <translation>«%1»，“%3”中的第 %2 个词。最接近的：</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影器</translation>
    </message>
    <message>
        <source>Every word&apos;s encoder state over the validation sentences, projected to two dimensions; click one to see its nearest words.</source>
        <translation>验证句中每个词的编码器状态，投影到二维；点击一个点可查看最接近的词。</translation>
    </message>
    <message>
        <source>Press Project to place every word of the validation sentences.</source>
        <translation>点击“投影”，把验证句中的每个词放到图上。</translation>
    </message>
    <message>
        <source>Train or open a translation model first.</source>
        <translation>请先训练或打开一个翻译模型。</translation>
    </message>
    <message>
        <source>the points are exported as CSV, not NPY: save the file with the .csv extension</source>
        <translation>这些点只能导出为 CSV，不能导出为 NPY：请用 .csv 扩展名保存文件</translation>
    </message>
    <message>
        <source>there is nothing to export yet: press Project first</source>
        <translation>还没有可导出的内容：请先点击“投影”</translation>
    </message>
</context>
<context>
    <name>attnlab::RecentFiles</name>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清空菜单(&amp;C)</translation>
    </message>
</context>
<context>
    <name>attnlab::SessionTask</name>
    <message>
        <source>Start the Lesson?</source>
        <translation>开始课程？</translation>
    </message>
    <message>
        <source>Reset the Model?</source>
        <translation>重置模型？</translation>
    </message>
</context>
<context>
    <name>attnlab::SettingNames</name>
    <message>
        <source>Hidden size</source>
        <translation>隐藏层大小</translation>
    </message>
    <message>
        <source>Embedding size</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>前馈层宽度</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>丢弃率 (Dropout)</translation>
    </message>
    <message>
        <source>Window D</source>
        <translation>窗口 D</translation>
    </message>
    <message>
        <source>Max length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <source>Source vocabulary</source>
        <translation>源语言词表</translation>
    </message>
    <message>
        <source>Target vocabulary</source>
        <translation>目标语言词表</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批次大小</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Gradient clip</source>
        <translation>梯度裁剪</translation>
    </message>
    <message>
        <source>Teacher forcing</source>
        <translation>教师强制</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Validation share</source>
        <translation>验证集比例</translation>
    </message>
    <message>
        <source>Minimum word frequency</source>
        <translation>最低词频</translation>
    </message>
    <message>
        <source>%1 (%2) must divide %3 (%4)</source>
        <translation>%3（%4）必须能被%1（%2）整除</translation>
    </message>
    <message>
        <source>%1 must be above %2 and at most %3; it is %4</source>
        <translation>%1必须大于 %2 且不超过 %3；当前为 %4</translation>
    </message>
    <message>
        <source>%1 must be at least %2 and below %3; it is %4</source>
        <translation>%1必须不小于 %2 且小于 %3；当前为 %4</translation>
    </message>
    <message>
        <source>%1 must be between %2 and %3; it is %4</source>
        <translation>%1必须在 %2 到 %3 之间；当前为 %4</translation>
    </message>
    <message>
        <source>Chunk</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Horizon</source>
        <translation>预测长度</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>周期</translation>
    </message>
    <message>
        <source>Decoder layers</source>
        <translation>解码器层数</translation>
    </message>
    <message>
        <source>Series length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Echo lag</source>
        <translation>回声滞后</translation>
    </message>
    <message>
        <source>Coverage penalty</source>
        <translation>覆盖惩罚</translation>
    </message>
    <message>
        <source>Guided alignment</source>
        <translation>引导对齐</translation>
    </message>
</context>
<context>
    <name>attnlab::Task</name>
    <message>
        <source>This task cannot save its setup as a lesson.</source>
        <translation>此任务无法将其设置保存为课程。</translation>
    </message>
</context>
<context>
    <name>attnlab::TaskSupport</name>
    <message>
        <source>AttnLab models (*.safetensors)</source>
        <translation>AttnLab 模型 (*.safetensors)</translation>
    </message>
    <message>
        <source>Training stopped; the model stays.</source>
        <translation>训练已停止；模型已保留。</translation>
    </message>
    <message>
        <source>Training finished.</source>
        <translation>训练完成。</translation>
    </message>
    <message>
        <source>Training Failed</source>
        <translation>训练失败</translation>
    </message>
    <message>
        <source>%1

The model keeps its last good weights.</source>
        <translation>%1

模型保留最后一组正常的权重。</translation>
    </message>
    <message>
        <source>Cannot Open Model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Cannot Save Model</source>
        <translation>无法保存模型</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Wait until the current job has stopped.</source>
        <translation>请等待当前任务停止。</translation>
    </message>
</context>
<context>
    <name>attnlab::TextsView</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Rationale</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>Show the texts of one label</source>
        <translation>只显示某一标签的文本</translation>
    </message>
    <message>
        <source>Label:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>Open in Classify</source>
        <translation>在“分类”中打开</translation>
    </message>
    <message>
        <source>Explain This Text</source>
        <translation>解释此文本</translation>
    </message>
    <message>
        <source>Texts</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>The dataset&apos;s texts and labels, with the words that decide each label against the model&apos;s attention.</source>
        <translation>数据集中的文本和标签，并将决定每个标签的词与模型的注意力相对照。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>No texts yet: choose a dataset in the setup panel.</source>
        <translation>还没有文本：请在设置面板中选择一个数据集。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 texts, %3 classes%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 条文本，%3 个类别%4</translation>
    </message>
    <message>
        <source>; the underlined words are each text&apos;s gold rationale</source>
        <translation>；带下划线的词是每条文本的标准依据</translation>
    </message>
    <message>
        <source>Select a text to see its rationale against the model&apos;s attention.</source>
        <translation>选择一条文本，对照查看它的依据与模型的注意力。</translation>
    </message>
    <message>
        <source>Label &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>标签 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source> · the model says &lt;b&gt;%1&lt;/b&gt; · attention on the rationale: %2 (uniform: %3)</source>
        <translation> · 模型判断为 &lt;b&gt;%1&lt;/b&gt; · 依据上的注意力：%2（均匀注意力：%3）</translation>
    </message>
    <message>
        <source> · the model says &lt;b&gt;%1&lt;/b&gt;</source>
        <translation> · 模型判断为 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source> · the model says &lt;b&gt;%1&lt;/b&gt; (it has no attention to show)</source>
        <translation> · 模型判断为 &lt;b&gt;%1&lt;/b&gt;（它没有可显示的注意力）</translation>
    </message>
    <message>
        <source> · asking the model…</source>
        <translation> · 正在询问模型…</translation>
    </message>
    <message>
        <source>Select a text first</source>
        <translation>请先选择一条文本</translation>
    </message>
    <message>
        <source>The Texts view is exported as PNG, SVG or PDF</source>
        <translation>“文本”视图只能导出为 PNG、SVG 或 PDF</translation>
    </message>
</context>
<context>
    <name>attnlab::TimelineView</name>
    <message>
        <source>Export Grid…</source>
        <translation>导出网格图…</translation>
    </message>
    <message>
        <source>Save evenly spaced snapshots side by side in one image, with one colour bar</source>
        <translation>把均匀间隔的快照并排保存到一张图像中，共用一个颜色条</translation>
    </message>
    <message>
        <source>Export Frames…</source>
        <translation>导出帧…</translation>
    </message>
    <message>
        <source>Save every snapshot as a numbered PNG (name_001.png, …) into a folder, e.g. to make a video</source>
        <translation>把每个快照保存为带编号的 PNG（name_001.png、…）到一个文件夹中，例如用来制作视频</translation>
    </message>
    <message>
        <source>Play the snapshots in order (Space when the slider has focus)</source>
        <translation>按顺序播放快照（滑块获得焦点时可按空格键）</translation>
    </message>
    <message>
        <source>Scrub through training: each step is one probe update</source>
        <translation>拖动浏览训练过程：每一格对应一次探针更新</translation>
    </message>
    <message>
        <source>%1 frames/s</source>
        <translation>%1 帧/秒</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <source>before training</source>
        <translation>训练前</translation>
    </message>
    <message>
        <source>epoch %1 · batch %2</source>
        <translation>第 %1 轮 · 批次 %2</translation>
    </message>
    <message>
        <source>batch %1 · %2 epochs done</source>
        <translation>批次 %1 · 已完成 %2 轮</translation>
    </message>
    <message>
        <source>No snapshots yet</source>
        <translation>暂无快照</translation>
    </message>
    <message>
        <source>Start training: each time the probe sentence is translated (see Live Probe for how often), its attention is recorded here. Then scrub or play through training to see the alignment form.</source>
        <translation>开始训练吧：每次翻译探针句子时（频率在“实时探针”中设置），它的注意力都会记录在这里。之后可以拖动或播放，观察对齐在训练中逐渐形成的过程。</translation>
    </message>
    <message>
        <source>(empty output)</source>
        <translation>（输出为空）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>no snapshots</source>
        <translation>无快照</translation>
    </message>
    <message>
        <source>%1  (%2 of %3)</source>
        <translation>%1（%2 / %3）</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>cross-attention, layer %1, head %2</source>
        <translation>交叉注意力，第 %1 层，注意力头 %2</translation>
    </message>
    <message>
        <source>cross-attention, layer %1, mean of %2 heads</source>
        <translation>交叉注意力，第 %1 层，%2 个注意力头的平均</translation>
    </message>
    <message>
        <source>cannot export &apos;%1&apos;: the grid is written as PNG, SVG or PDF</source>
        <translation>无法导出“%1”：网格图只能保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>cannot export &apos;%1&apos;: there are no snapshots yet; start training first</source>
        <translation>无法导出“%1”：还没有快照，请先开始训练</translation>
    </message>
    <message>
        <source>cannot export &apos;%1&apos;: the snapshots have no attention to draw</source>
        <translation>无法导出“%1”：快照中没有可绘制的注意力</translation>
    </message>
    <message>
        <source>“%1”: %2 during training</source>
        <translation>“%1”：训练过程中的%2</translation>
    </message>
    <message>
        <source>cannot export into &apos;%1&apos;: there are no snapshots yet; start training first</source>
        <translation>无法导出到“%1”：还没有快照，请先开始训练</translation>
    </message>
    <message>
        <source>cannot export: the file name &apos;%1&apos; must not contain a folder separator</source>
        <translation>无法导出：文件名“%1”中不能包含文件夹分隔符</translation>
    </message>
    <message>
        <source>cannot create the folder &apos;%1&apos;</source>
        <translation>无法创建文件夹“%1”</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>Export Grid</source>
        <translation>导出网格图</translation>
    </message>
    <message>
        <source>Snapshots in the grid (evenly spaced):</source>
        <translation>网格图中的快照数（均匀间隔）：</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export Frames Into</source>
        <translation>将帧导出到</translation>
    </message>
    <message>
        <source>Export Frames</source>
        <translation>导出帧</translation>
    </message>
    <message>
        <source>File names (name_001.png, name_002.png, …):</source>
        <translation>文件名（name_001.png、name_002.png、…）：</translation>
    </message>
    <message>
        <source>Wrote %1 frames to %2</source>
        <translation>已将 %1 帧写入 %2</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Replay the probe sentence&apos;s attention over the whole training run.</source>
        <translation>回放探针句子的注意力在整个训练过程中的变化。</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainingBox</name>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The seed of the weights and the batches.</source>
        <translation>权重初始化和批次划分所用的随机种子。</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批次大小：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Largest allowed gradient norm; clipping keeps one bad batch from wrecking the model.</source>
        <translation>允许的最大梯度范数；裁剪可以防止一个糟糕的批次毁掉模型。</translation>
    </message>
    <message>
        <source>The share of the series at its end held out: validation and the forecasts shown are made there.</source>
        <translation>序列末尾留出的比例：验证和显示的预测都在这一段上进行。</translation>
    </message>
    <message>
        <source>The share held out to measure loss and accuracy on unseen data (when there is no test set).</source>
        <translation>留出用于在未见数据上测量损失和准确率的比例（没有测试集时）。</translation>
    </message>
    <message>
        <source>Gradient clip:</source>
        <translation>梯度裁剪：</translation>
    </message>
    <message>
        <source>Held-out tail:</source>
        <translation>留出的尾段：</translation>
    </message>
    <message>
        <source>Validation share:</source>
        <translation>验证集比例：</translation>
    </message>
</context>
<context>
    <name>attnlab::TrainingSettingsWidget</name>
    <message>
        <source>Step size of the Adam optimiser: too high diverges, too low learns slowly.</source>
        <translation>Adam 优化器的步长：过高会发散，过低则学得很慢。</translation>
    </message>
    <message>
        <source>Sentence pairs per training step; one step is one batch.</source>
        <translation>每个训练步使用的句对数；一步就是一个批次。</translation>
    </message>
    <message>
        <source>Passes over the training pairs; validation metrics are computed after each.</source>
        <translation>遍历训练句对的次数；每轮结束后计算验证指标。</translation>
    </message>
    <message>
        <source>Seeds the weights, the shuffling and the validation split: same seed, same run.</source>
        <translation>决定权重初始化、数据打乱和验证集划分：相同种子，相同的训练过程。</translation>
    </message>
    <message>
        <source>CPU threads that train the parts of each batch side by side; a run repeats exactly for the same seed and number of threads.</source>
        <translation>并行训练每个批次各部分的 CPU 线程数；种子和线程数相同时，训练结果完全相同。</translation>
    </message>
    <message>
        <source>Share of the pairs held out to measure loss, accuracy and BLEU on unseen data.</source>
        <translation>留出的句对比例，用于在未见过的数据上衡量损失、准确率和 BLEU。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Largest allowed gradient norm; clipping keeps one bad batch from wrecking the model.</source>
        <translation>允许的最大梯度范数；裁剪可以防止一个糟糕的批次毁掉模型。</translation>
    </message>
    <message>
        <source>GRU only: how often the decoder is fed the correct previous word instead of its own guess.</source>
        <translation>仅用于 GRU：解码器以正确的前一个词（而非它自己的猜测）作为输入的频率。</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批次大小：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation>线程数：</translation>
    </message>
    <message>
        <source>Validation share:</source>
        <translation>验证集比例：</translation>
    </message>
    <message>
        <source>Gradient clip:</source>
        <translation>梯度裁剪：</translation>
    </message>
    <message>
        <source>Teacher forcing:</source>
        <translation>教师强制：</translation>
    </message>
    <message>
        <source>Adds a penalty when the source words&apos; shares of the attention are uneven (Xu et al. 2015): every word gets looked at. Its effect shows in Diagnostics&apos; coverage. Words with no counterpart (&quot;the&quot;) are then attended too.</source>
        <translation>当各源词分到的注意力不均匀时加一项惩罚（Xu 等人，2015）：每个词都会被关注。其效果可在“诊断”的覆盖率中看到。没有对应词的词（如 “the”）也会因此被关注。</translation>
    </message>
    <message>
        <source>Pulls the cross-attention toward the gold word links (Garg et al. 2019): a Transformer&apos;s last-layer first head, a GRU&apos;s one map. Needs word links (the built-in datasets have them). The AER curve then scores that head.</source>
        <translation>把交叉注意力拉向标准词对齐（Garg 等人，2019）：Transformer 最后一层的第一个头，或 GRU 唯一的那张图。需要词对齐（内置数据集都有）。此时 AER 曲线衡量的就是这个头。</translation>
    </message>
    <message>
        <source>Coverage penalty:</source>
        <translation>覆盖惩罚：</translation>
    </message>
    <message>
        <source>Guided alignment:</source>
        <translation>引导对齐：</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslateView</name>
    <message>
        <source>Type a sentence in the source language and press Enter</source>
        <translation>输入一个源语言句子并按回车</translation>
    </message>
    <message>
        <source>The sentence to translate; words the model never saw become &lt;unk&gt;.</source>
        <translation>要翻译的句子；模型从未见过的词会变成 &lt;unk&gt;。</translation>
    </message>
    <message>
        <source>beam </source>
        <translation>束宽 </translation>
    </message>
    <message>
        <source>Beam width: 1 picks the likeliest word at each step, more keeps several candidate outputs.</source>
        <translation>束宽：为 1 时每一步都选择可能性最大的词，更大的值会同时保留多个候选输出。</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Translate the sentence (Enter).</source>
        <translation>翻译该句子（回车）。</translation>
    </message>
    <message>
        <source>Update after each epoch</source>
        <translation>每轮结束后更新</translation>
    </message>
    <message>
        <source>Translate the sentence again whenever training finishes an epoch.</source>
        <translation>每当训练完成一轮时，重新翻译该句子。</translation>
    </message>
    <message>
        <source>Start training or open a model, then type a sentence to see where the model looks while it translates.</source>
        <translation>开始训练或打开一个模型，然后输入一个句子，看看模型在翻译时关注哪里。</translation>
    </message>
    <message>
        <source>Type a sentence above and press Enter.</source>
        <translation>在上方输入一个句子并按回车。</translation>
    </message>
    <message>
        <source>Output appears here</source>
        <translation>译文将显示在这里</translation>
    </message>
    <message>
        <source>(empty output)</source>
        <translation>（输出为空）</translation>
    </message>
    <message>
        <source>output tokens: %1</source>
        <translation>输出词元数：%1</translation>
    </message>
    <message>
        <source> · log-probability %1</source>
        <translation> · 对数概率 %1</translation>
    </message>
    <message>
        <source> · the sentence was cut to the model&apos;s maximum length</source>
        <translation> · 句子已被截断到模型的最大长度</translation>
    </message>
    <message>
        <source>Translate a sentence and see the attention behind it.</source>
        <translation>翻译一个句子，并查看其背后的注意力。</translation>
    </message>
    <message>
        <source>Undo Edits</source>
        <translation>撤销编辑</translation>
    </message>
    <message>
        <source>Back to the sentence as typed.</source>
        <translation>回到原来输入的句子。</translation>
    </message>
    <message>
        <source>Double-click a source word&apos;s label to mask it (&lt;unk&gt;) or drop it and see what the model does without it.</source>
        <translation>双击源词的标签，可将其遮盖（&lt;unk&gt;）或删除，看看模型在没有它时会怎样。</translation>
    </message>
    <message>
        <source>Mask %1 (the model reads &lt;unk&gt;)</source>
        <translation>遮盖 %1（模型读到的是 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>Drop %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>masked %1</source>
        <translation>遮盖了 %1</translation>
    </message>
    <message>
        <source>dropped %1</source>
        <translation>删除了 %1</translation>
    </message>
    <message>
        <source>Translating the edited sentence…</source>
        <translation>正在翻译编辑后的句子…</translation>
    </message>
    <message>
        <source>The output does not change.</source>
        <translation>输出没有变化。</translation>
    </message>
    <message>
        <source>As typed, the sentence gave %1.</source>
        <translation>按原样输入时，句子的翻译是 %1。</translation>
    </message>
    <message>
        <source>Edited (%1): the source is now %2. %3</source>
        <translation>已编辑（%1）：源句现在是 %2。%3</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslationCurvesView</name>
    <message>
        <source>Logarithmic loss axis</source>
        <translation>损失使用对数坐标轴</translation>
    </message>
    <message>
        <source>A log scale shows the late, small improvements of the loss.</source>
        <translation>对数刻度能显示损失在后期的细小改进。</translation>
    </message>
    <message>
        <source>Loss of every batch</source>
        <translation>每个批次的损失</translation>
    </message>
    <message>
        <source>Show the noisy loss of each batch as a faint line behind the epoch averages.</source>
        <translation>在每轮平均值后面用浅色线条显示每个批次带噪声的损失。</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Batch loss</source>
        <translation>批次损失</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Validation quality</source>
        <translation>验证质量</translation>
    </message>
    <message>
        <source>Token accuracy (%)</source>
        <translation>词元准确率 (%)</translation>
    </message>
    <message>
        <source>Exact match (%)</source>
        <translation>完全匹配 (%)</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>percent / BLEU</source>
        <translation>百分比 / BLEU</translation>
    </message>
    <message>
        <source>epoch %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Curves appear here as the model trains.</source>
        <translation>模型训练时，曲线会显示在这里。</translation>
    </message>
    <message>
        <source>cross-entropy per token</source>
        <translation>每个词元的交叉熵</translation>
    </message>
    <message>
        <source>Epoch %1:  validation loss %2 · token accuracy %3% · exact match %4% · BLEU %5 · %6 pairs/s</source>
        <translation>第 %1 轮：验证损失 %2 · 词元准确率 %3% · 完全匹配 %4% · BLEU %5 · %6 句对/秒</translation>
    </message>
    <message>
        <source>Training curves</source>
        <translation>训练曲线</translation>
    </message>
    <message>
        <source>Training Curves</source>
        <translation>训练曲线</translation>
    </message>
    <message>
        <source>Loss, accuracy and BLEU as training goes on.</source>
        <translation>训练过程中的损失、准确率和 BLEU。</translation>
    </message>
    <message>
        <source>Alignment error (AER, %)</source>
        <translation>对齐错误率（AER，%）</translation>
    </message>
    <message>
        <source>AER %1%</source>
        <translation>AER %1%</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslationRun</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loaded %1: %2 sentence pairs.</source>
        <translation>已加载 %1：%2 个句对。</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>

The current corpus (%1) stays loaded.</source>
        <translation>

当前语料（%1）仍保持加载。</translation>
    </message>
    <message>
        <source>Cannot Open Corpus</source>
        <translation>无法打开语料</translation>
    </message>
    <message>
        <source>The corpus could not be read:

%1%2</source>
        <translation>无法读取该语料：

%1%2</translation>
    </message>
    <message>
        <source>Training starts when the corpus is loaded…</source>
        <translation>语料加载完成后将开始训练…</translation>
    </message>
    <message>
        <source>No Corpus</source>
        <translation>没有语料</translation>
    </message>
    <message>
        <source>Load a corpus or generate a built-in dataset first.</source>
        <translation>请先加载语料，或生成一个内置数据集。</translation>
    </message>
    <message>
        <source>Start a New Run?</source>
        <translation>开始新的训练？</translation>
    </message>
    <message>
        <source>Starting builds a new model from the settings. The current model has unsaved training. Discard it?</source>
        <translation>开始训练会按当前设置构建一个新模型。当前模型有尚未保存的训练结果。要丢弃它吗？</translation>
    </message>
    <message>
        <source>Preparing: tokenizing %1 and building the model…</source>
        <translation>准备中：正在对 %1 进行分词并构建模型…</translation>
    </message>
    <message>
        <source>Discard the Model?</source>
        <translation>丢弃模型？</translation>
    </message>
    <message>
        <source>Reset discards the model and its unsaved training.</source>
        <translation>重置会丢弃模型及其尚未保存的训练结果。</translation>
    </message>
    <message>
        <source>Reset: no model.</source>
        <translation>已重置：当前没有模型。</translation>
    </message>
    <message>
        <source>Start the Lesson?</source>
        <translation>开始课程？</translation>
    </message>
    <message>
        <source>The lesson trains a new model. The current model and its unsaved training will be discarded.</source>
        <translation>课程会训练一个新模型。当前模型及其尚未保存的训练结果将被丢弃。</translation>
    </message>
    <message>
        <source>Type a sentence to translate.</source>
        <translation>请输入要翻译的句子。</translation>
    </message>
    <message>
        <source>There is no model yet: start training or open a model.</source>
        <translation>还没有模型：请开始训练或打开一个模型。</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslationTask</name>
    <message>
        <source>Transformer (%1 layers, %2 heads)</source>
        <translation>Transformer（%1 层，%2 个注意力头）</translation>
    </message>
    <message>
        <source>GRU with %1 attention</source>
        <translation>GRU（%1 注意力）</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Sequence to sequence: a GRU encoder-decoder with classic attention, or a Transformer, translating a parallel corpus.</source>
        <translation>序列到序列：带经典注意力的 GRU 编码器-解码器，或 Transformer，在平行语料上学习翻译。</translation>
    </message>
    <message>
        <source>&amp;Open Corpus…</source>
        <translation>打开语料(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a TSV corpus: one source&lt;TAB&gt;target pair per line</source>
        <translation>打开 TSV 语料：每行一个“源句&lt;TAB&gt;目标句”句对</translation>
    </message>
    <message>
        <source>Open Corpus…</source>
        <translation>打开语料…</translation>
    </message>
    <message>
        <source>Open &amp;Aligned Files…</source>
        <translation>打开对齐文件(&amp;A)…</translation>
    </message>
    <message>
        <source>Open two line-aligned files, e.g. train.en and train.fr</source>
        <translation>打开两个逐行对齐的文件，例如 train.en 和 train.fr</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Export All &amp;Heads…</source>
        <translation>导出所有注意力头(&amp;H)…</translation>
    </message>
    <message>
        <source>Write one file per attention head into a folder</source>
        <translation>把每个注意力头分别写成一个文件，保存到一个文件夹中</translation>
    </message>
    <message>
        <source>&amp;Logarithmic Loss Axis</source>
        <translation>损失使用对数坐标轴(&amp;L)</translation>
    </message>
    <message>
        <source>Training stopped; the model is kept for translation and saving.</source>
        <translation>训练已停止；模型已保留，可用于翻译和保存。</translation>
    </message>
    <message>
        <source>Training finished.</source>
        <translation>训练完成。</translation>
    </message>
    <message>
        <source>Training Diverged</source>
        <translation>训练发散</translation>
    </message>
    <message>
        <source>Training diverged at epoch %1, batch %2: the loss or a gradient became infinite or NaN.

The weights from before that batch are kept: you can still translate with them and save them. A lower learning rate or gradient clipping usually helps.

%3</source>
        <translation>训练在第 %1 轮、第 %2 个批次发散：损失或某个梯度变成了无穷大或 NaN。

该批次之前的权重已保留：你仍然可以用它们翻译并保存。降低学习率或使用梯度裁剪通常会有帮助。

%3</translation>
    </message>
    <message>
        <source>Training Failed</source>
        <translation>训练失败</translation>
    </message>
    <message>
        <source>Training could not go on:

%1</source>
        <translation>训练无法继续：

%1</translation>
    </message>
    <message>
        <source>Saved the model to %1</source>
        <translation>模型已保存到 %1</translation>
    </message>
    <message>
        <source>Cannot Save Model</source>
        <translation>无法保存模型</translation>
    </message>
    <message>
        <source>The model was not saved:

%1</source>
        <translation>模型未保存：

%1</translation>
    </message>
    <message>
        <source>Cannot Open Model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>The model file could not be used:

%1

The current model stays loaded.</source>
        <translation>无法使用该模型文件：

%1

当前模型仍保持加载。</translation>
    </message>
    <message>
        <source>Open Corpus</source>
        <translation>打开语料</translation>
    </message>
    <message>
        <source>Tab-separated corpora (*.tsv *.txt *.tab);;All files (*)</source>
        <translation>制表符分隔的语料 (*.tsv *.txt *.tab);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open the Source-Language File</source>
        <translation>打开源语言文件</translation>
    </message>
    <message>
        <source>Text files (*)</source>
        <translation>文本文件 (*)</translation>
    </message>
    <message>
        <source>Open the Target-Language File (line by line aligned with %1)</source>
        <translation>打开目标语言文件（与 %1 逐行对齐）</translation>
    </message>
    <message>
        <source>Stop the training run before opening another model.</source>
        <translation>请先停止训练，再打开另一个模型。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>There is no model yet: train one first.</source>
        <translation>还没有模型：请先训练一个。</translation>
    </message>
    <message>
        <source>Saving %1…</source>
        <translation>正在保存 %1…</translation>
    </message>
    <message>
        <source>Save Model</source>
        <translation>保存模型</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Translate a sentence first (Heads view): there are no heads to export.</source>
        <translation>请先（在“注意力头”视图中）翻译一个句子：当前没有可导出的注意力头。</translation>
    </message>
    <message>
        <source>Export All Heads Into</source>
        <translation>将所有注意力头导出到</translation>
    </message>
    <message>
        <source>Export All Heads</source>
        <translation>导出所有注意力头</translation>
    </message>
    <message>
        <source>File format:</source>
        <translation>文件格式：</translation>
    </message>
    <message>
        <source>Wrote %1 files to %2</source>
        <translation>已将 %1 个文件写入 %2</translation>
    </message>
    <message>
        <source>Opened %1: %2, %3 parameters</source>
        <translation>已打开 %1：%2，%3 个参数</translation>
    </message>
    <message>
        <source>Training %1, %2 parameters, on %3 pairs (validating on %4)</source>
        <translation>正在训练 %1，%2 个参数，使用 %3 个句对（验证集 %4 个）</translation>
    </message>
    <message>
        <source>; skipped %1 pairs longer than the maximum length</source>
        <translation>；跳过了 %1 个超过最大长度的句对</translation>
    </message>
    <message>
        <source>Epoch %1/%2 · batch %3/%4</source>
        <translation>第 %1/%2 轮 · 批次 %3/%4</translation>
    </message>
    <message>
        <source>Epoch %1: validation loss %2, token accuracy %3%, BLEU %4</source>
        <translation>第 %1 轮：验证损失 %2，词元准确率 %3%，BLEU %4</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>Model ready</source>
        <translation>模型就绪</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>● Training</source>
        <translation>● 训练中</translation>
    </message>
    <message>
        <source>❚❚ Paused</source>
        <translation>❚❚ 已暂停</translation>
    </message>
    <message>
        <source>✓ Finished</source>
        <translation>✓ 已完成</translation>
    </message>
    <message>
        <source>no corpus</source>
        <translation>无语料</translation>
    </message>
    <message>
        <source>Save the Model?</source>
        <translation>保存模型？</translation>
    </message>
    <message>
        <source>The model has training that is not saved. Save it before closing?</source>
        <translation>模型有尚未保存的训练结果。关闭前要保存吗？</translation>
    </message>
    <message>
        <source>Stopping training…</source>
        <translation>正在停止训练…</translation>
    </message>
    <message>
        <source>Cannot Open Lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>A lesson names one corpus file: two aligned files cannot be saved in a lesson (write them as one TSV file first).</source>
        <translation>一个课程只指定一个语料文件：两个对齐文件无法保存到课程中（请先将它们写成一个 TSV 文件）。</translation>
    </message>
    <message>
        <source>Translation: %1</source>
        <translation>翻译：%1</translation>
    </message>
    <message>
        <source>A setup saved from AttnLab: say here what the class should look for.</source>
        <translation>从 AttnLab 保存的设置：请在此说明学生应观察什么。</translation>
    </message>
</context>
<context>
    <name>attnlab::TranslationWorker</name>
    <message>
        <source>an unknown internal error occurred</source>
        <translation>发生了未知的内部错误</translation>
    </message>
    <message>
        <source>no corpus is loaded</source>
        <translation>尚未加载语料</translation>
    </message>
    <message>
        <source>there is no model yet: start training or open a model</source>
        <translation>还没有模型：请开始训练或打开一个模型</translation>
    </message>
    <message>
        <source>there is no model to save</source>
        <translation>没有可保存的模型</translation>
    </message>
    <message>
        <source>there are no pairs to measure the heads on: load a corpus first</source>
        <translation>没有可用于测量的句对：请先载入语料</translation>
    </message>
    <message>
        <source>there are no sentences to project: load a corpus first</source>
        <translation>没有可投影的句子：请先载入语料</translation>
    </message>
</context>
<context>
    <name>attnlab::View</name>
    <message>
        <source>this view has nothing to export</source>
        <translation>此视图没有可导出的内容</translation>
    </message>
    <message>
        <source>there is no heatmap to export in this view yet</source>
        <translation>此视图中还没有可导出的热力图</translation>
    </message>
</context>
<context>
    <name>attnlab::ViewNavigator</name>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>观察</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
</context>
<context>
    <name>attnlab::WindowActions</name>
    <message>
        <source>viridis</source>
        <comment>colour map</comment>
        <translation>viridis</translation>
    </message>
    <message>
        <source>magma</source>
        <comment>colour map</comment>
        <translation>magma</translation>
    </message>
    <message>
        <source>cividis</source>
        <comment>colour map</comment>
        <translation>cividis</translation>
    </message>
    <message>
        <source>bone</source>
        <comment>colour map</comment>
        <translation>bone（骨白）</translation>
    </message>
    <message>
        <source>grey</source>
        <comment>colour map</comment>
        <translation>grey（灰度）</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Save Model</source>
        <translation>保存模型(&amp;S)</translation>
    </message>
    <message>
        <source>Save the model as .safetensors (readable from Python too)</source>
        <translation>将模型保存为 .safetensors（Python 也可读取）</translation>
    </message>
    <message>
        <source>Save Model &amp;As…</source>
        <translation>模型另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export Image…</source>
        <translation>导出图像(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the heatmap, head grid or chart shown as PNG, SVG or PDF</source>
        <translation>将当前显示的热力图、注意力头网格或图表保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Export &amp;Matrix (CSV, NumPy)…</source>
        <translation>导出矩阵（CSV、NumPy）(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Show &amp;Numbers in Cells</source>
        <translation>在单元格中显示数值(&amp;N)</translation>
    </message>
    <message>
        <source>Write each weight into its cell when the cells are large enough</source>
        <translation>当单元格足够大时，在每个单元格中写出其权重</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit Heatmap</source>
        <translation>热力图适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;About AttnLab</source>
        <translation>关于 AttnLab(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Colour Map</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Show &amp;Setup Panel</source>
        <translation>显示设置面板(&amp;S)</translation>
    </message>
    <message>
        <source>Lan&amp;guage</source>
        <translation>语言(&amp;G)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Open Model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <source>Save Model</source>
        <translation>保存模型</translation>
    </message>
    <message>
        <source>Export Image…</source>
        <translation>导出图像…</translation>
    </message>
    <message>
        <source>Numbers</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Colours </source>
        <translation>配色 </translation>
    </message>
    <message>
        <source>Colour map of every heatmap; viridis, magma and cividis are perceptually uniform and readable in grey.</source>
        <translation>所有热力图使用的配色；viridis、magma 和 cividis 在感知上是均匀的，转为灰度后仍清晰可辨。</translation>
    </message>
    <message>
        <source>Open a trained model (.safetensors) of the current task</source>
        <translation>打开当前任务的已训练模型（.safetensors）</translation>
    </message>
    <message>
        <source>Open &amp;Lesson…</source>
        <translation>打开课程(&amp;L)…</translation>
    </message>
    <message>
        <source>Open a lesson file (.json): its data, model, training and view, then train</source>
        <translation>打开课程文件 (.json)：载入其数据、模型、训练和视图设置，然后训练</translation>
    </message>
    <message>
        <source>Save Setup as Lesso&amp;n…</source>
        <translation>将设置保存为课程(&amp;N)…</translation>
    </message>
    <message>
        <source>Write the current task&apos;s data, model, training, probe and view as a lesson file</source>
        <translation>将当前任务的数据、模型、训练、探针和视图设置写入课程文件</translation>
    </message>
    <message>
        <source>  Keep </source>
        <translation>  保留 </translation>
    </message>
    <message>
        <source>Threshold: in every heatmap and line view, only each row&apos;s largest weights that together reach this share of its attention keep their colour (100%: every weight).</source>
        <translation>阈值：在所有热力图和连线视图中，每行只有合计达到该行注意力这一比例的最大权重保留颜色（100%：所有权重）。</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>Build a new model from the setup panel&apos;s settings and train it (F5)</source>
        <translation>按设置面板中的设置构建一个新模型并训练它（F5）</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>Continue the paused run (F5)</source>
        <translation>继续已暂停的训练（F5）</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Pause after the current batch (F6)</source>
        <translation>在当前批次结束后暂停（F6）</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>单步(&amp;T)</translation>
    </message>
    <message>
        <source>Train exactly one batch, then pause (F10)</source>
        <translation>只训练一个批次，然后暂停（F10）</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>End the run after the current batch; the model stays (Shift+F5)</source>
        <translation>在当前批次结束后终止本次训练；模型会保留（Shift+F5）</translation>
    </message>
    <message>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;E)</translation>
    </message>
    <message>
        <source>Discard the model and its curves</source>
        <translation>丢弃模型和曲线</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
</context>
<context>
    <name>attnlab::WordStrip</name>
    <message>
        <source>rationale word</source>
        <translation>依据词</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Train small attention models and watch their attention live.</source>
        <translation>训练小型注意力模型，并实时观察它们的注意力。</translation>
    </message>
    <message>
        <source>Start with a built-in dataset (toy-en-zh, or the one given) loaded and a Transformer training.</source>
        <translation>启动时加载一个内置数据集（默认 toy-en-zh，或所指定的数据集）并开始训练一个 Transformer。</translation>
    </message>
    <message>
        <source>Open the setup panel on a page: data, model, training.</source>
        <translation>启动时打开设置面板的指定页：data、model、training。</translation>
    </message>
    <message>
        <source>A corpus (.tsv) or a model (.safetensors) to open.</source>
        <translation>要打开的语料（.tsv）或模型（.safetensors）。</translation>
    </message>
    <message>
        <source>Lessons (--lesson NAME):</source>
        <translation>课程（--lesson 名称）：</translation>
    </message>
    <message>
        <source>Start a lesson: one of those listed below (also in the Lessons menu), or a lesson file (.json, see docs/lessons.md).</source>
        <translation>开始一个课程：下列课程之一（也见“课程”菜单），或一个课程文件（.json，参见 docs/lessons.md）。</translation>
    </message>
    <message>
        <source>Open on a view, by its name (an unknown name lists them).</source>
        <translation>在指定视图上打开，按其名称（名称不存在时会列出全部）。</translation>
    </message>
    <message>
        <source>Open on a task: %1.</source>
        <translation>在指定任务上打开：%1。</translation>
    </message>
    <message>
        <source>Open the window, do what the other options ask, paint it once and quit: a check that AttnLab starts on this machine (and how fast).</source>
        <translation>打开窗口，执行其他选项所要求的操作，绘制一次后退出：用来检查 AttnLab 能否在这台机器上启动（以及启动有多快）。</translation>
    </message>
</context>
</TS>
