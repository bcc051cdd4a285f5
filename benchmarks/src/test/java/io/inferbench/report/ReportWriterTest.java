package io.inferbench.report;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.cli.Settings;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.SampleRuns;
import io.inferbench.results.SlaBoundary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportWriterTest {
    @TempDir
    Path dir;

    /** A run of two seq buckets x batches 1..4 whose latencies follow a known shape, with seeded spread. */
    static RunResult syntheticRun() {
        RunResult base = SampleRuns.sampleRun();
        Random random = new Random(12345);
        List<CellResult> cells = new ArrayList<>();
        for (int seq : new int[] {64, 256}) {
            for (int batch = 1; batch <= 4; batch++) {
                Histogram h = PassRecorder.newHistogram();
                double centreNs = 1_000_000.0 * seq / 64 * batch;
                for (int i = 0; i < 500; i++) {
                    h.recordValue(Math.round(centreNs * Math.exp(0.1 * random.nextGaussian())));
                }
                LatencySummary l = LatencySummary.of(h);
                cells.add(new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab".repeat(32), seq,
                        batch), new CellResult.Counts(1, 20, 500), new CellResult.Latency(l, l, batch * 1000 / l.meanMs()),
                        List.of(new ColdStart(400, 200, 5)), SampleRuns.ORT_SESSION,
                        new CellResult.Histograms(HistogramCodec.encode(h), null), CellResult.ForkRecords.NONE));
            }
        }
        return base.withCells(cells, base.finishedAt()).withProfile(null);
    }

    /** With a profile: the roofline plot, the peaks and fixed costs, every cross-check and every cell's row. */
    @Test
    void aRunWithAProfileGetsTheRooflineSectionAndPlot() throws Exception {
        RunResult run = SampleRuns.sampleRun();
        ReportWriter.Written written = ReportWriter.write(run, run.analysis(), dir);
        Charts.ChartFile roofline = written.charts().stream().filter(c -> c.title().startsWith("Roofline")).findFirst().orElseThrow();
        assertNotBlank(ImageIO.read(roofline.png().toFile()), roofline.png());
        assertTrue(roofline.title().contains("onnxruntime on cpu, 2 threads") && roofline.title().contains("2026-11-29"),
                roofline.title());
        String report = Files.readString(written.report());
        assertTrue(report.contains("## Where the time goes: roofline and op profile"));
        assertTrue(report.contains("| onnxruntime | cpu | 2 | 400.0 | 1200.0 | - | 50.0 (measured) | 40.0 (80%) | 0.0030 | 8.0 |"),
                "the peaks' row, with the int8 roof, the machine's memory roof and the engine's figure as its share: " + report);
        assertTrue(report.contains("| onnxruntime | cpu | tiny | 0.0320 | 0.0020 | 0.0300 |"), "the fixed cost's row");
        run.profile().crossChecks().forEach(c -> assertTrue(report.contains(c.explanation()), c.explanation()));
        run.profile().cells().forEach(c -> assertTrue(report.contains(String.format(Locale.ROOT, "| onnxruntime | cpu | tiny | 64 | %d | %.3f |",
                c.batch(), c.flops() / 1e9)), "the row of batch " + c.batch()));
        assertTrue(report.contains("](plots/roofline-onnxruntime-cpu.png)"));
        assertTrue(report.contains("## Against the reference: speed-up and output agreement"));
        assertTrue(report.contains("| 64 | 1 | 0.254 | 0.238 | 1.07x | 1.50x | 16 | 0.00425 | 2.63% | 0.999944 | 0.999979 | 100.0% | agrees |"),
                "an agreeing shape's row");
        assertTrue(report.contains("| 64 | 2 | 0.500 | 0.400 | 1.25x | 1.13x | 32 | 0.300 | 125.00% | 0.260000 | 0.710000 | 50.0% | **DIFFERS** |"),
                "a differing shape's row");
        assertTrue(report.contains("Not compared: the outputs differ in name"), "a refused pair says why");
    }

    /** The console's agreement lines: speed-up per batch, the worst figures, the verdict, a refused pair's reason. */
    /**
     * A CUDA run's resources (here the sample run's cells given GPU figures as the fake nvidia-smi would): report.md
     * gets the GPU table and the GPU memory fit; the console a GPU line and the largest batch within the GPU's memory.
     */
    @Test
    void aCudaRunsGpuFiguresReachTheReportAndTheConsole() throws Exception {
        RunResult run = SampleRuns.sampleRun();
        List<io.inferbench.results.ResourcesResult.CellResources> cells = new java.util.ArrayList<>();
        for (var c : run.resources().cells()) {
            double mb = 1000 + 500.0 * c.batch();
            var gpu = io.inferbench.resources.Resources.gpu(List.of(new io.inferbench.probe.GpuUse(10, 100,
                    new io.inferbench.probe.GpuUse.Utilisation(35.0, 60.0),
                    new io.inferbench.probe.GpuUse.Memory(mb + 300, 81559.0, mb),
                    new io.inferbench.probe.GpuUse.Power(150.0, 200.0, 1.5, 0.0125 * c.batch(), 12.5),
                    new io.inferbench.probe.GpuUse.Clocks(1900.0, 1755.0, List.of("SW power cap")), "fake", null)));
            cells.add(new io.inferbench.results.ResourcesResult.CellResources(new SeriesKey(c.backend(), "cuda:0",
                    c.model(), c.seqLen()), c.batch(), c.peakRssMb(), c.peakSince(), c.rssGrowthMb(), c.heapUsedMb(),
                    c.utilisationPercent(), c.otherProcessesPercent(), null, null, null, gpu));
        }
        var r = run.resources();
        var resources = new io.inferbench.results.ResourcesResult(null, "none given", cells, r.fits(), r.energyNote(),
                io.inferbench.resources.Resources.gpuFits(cells, null));
        RunResult cuda = run.withResources(resources);
        String report = Files.readString(ReportWriter.write(cuda, cuda.analysis(), dir).report());
        assertTrue(report.contains("### GPU per cell"), report);
        assertTrue(report.contains("| onnxruntime | cuda:0 | tiny | 64 | 1 | 10 | 35% | 1500 | 1800 / 81559 | 150 | 200 | 0.0125 | 12.50 | 1755 | SW power cap |"),
                report.lines().filter(l -> l.contains("cuda:0")).findFirst().orElse("no row"));
        assertTrue(report.contains("GPU memory against batch, per CUDA series, held to the GPU's memory"), report);
        assertTrue(report.contains("**batch 161** (extrapolated); the process's GPU memory: 1000 MiB at batch 0 plus 500.00 MiB per sample"),
                report);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ResourcesTable.print(resources, cuda, new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String console = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(console.contains("[inferbench]   GPU: utilisation 35-35% of the time a kernel ran; 150-150 W; 12.50-12.50 J per "
                + "1,000 samples; clocks held down by SW power cap"), console);
        assertTrue(console.contains("seq 64 GPU memory: largest batch within 81559 MiB: 161 (extrapolated)"), console);
    }

    @Test
    void theConsoleAgreementTableShowsSpeedUpsWorstFiguresAndVerdicts() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        AgreementTable.print(SampleRuns.sampleRun().agreement(), new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertEquals("model        backend      device    seq |     b1     b2 | max abs    max rel  min cos    top-1   verdict",
                lines.get(2));
        assertEquals("tiny-int8    onnxruntime  cpu        64 |  1.07x  1.25x | 0.300      125.00%  0.260000   50.0%   "
                + "DIFFERS at 1 of 2 shapes", lines.get(3));
        assertEquals("other.onnx   onnxruntime  cpu     not compared: the outputs differ in name: [scores] against the "
                + "reference's [logits]", lines.get(4));
    }

    @Test
    void writesValidNonBlankPngAndSvgChartsAndAReportWithEveryBucketAndVerdict() throws Exception {
        RunResult run = syntheticRun();
        Analysis analysis = RunAnalysis.analyze(run, Settings.defaultRegime());
        ReportWriter.Written written = ReportWriter.write(run.withAnalysis(analysis), analysis, dir);

        assertEquals(3, written.charts().size(), "latency, throughput and distribution for the one backend/device/model");
        for (Charts.ChartFile chart : written.charts()) {
            BufferedImage image = ImageIO.read(chart.png().toFile());
            assertEquals(Charts.WIDTH, image.getWidth(), chart.png().toString());
            assertEquals(Charts.HEIGHT, image.getHeight(), chart.png().toString());
            assertNotBlank(image, chart.png());

            DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
            xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // no network
            Document svg = xml.newDocumentBuilder().parse(chart.svg().toFile());
            assertEquals("svg", svg.getDocumentElement().getTagName(), chart.svg().toString());
            assertTrue(svg.getDocumentElement().getAttribute("width").startsWith(Integer.toString(Charts.WIDTH)),
                    "svg width " + svg.getDocumentElement().getAttribute("width"));
            assertTrue(Files.size(chart.svg()) > 5_000, "an SVG with axes, lines and text is not tiny");
            assertTrue(chart.title().contains("2 threads") && chart.title().contains("cpu") && chart.title().contains("tiny")
                    && chart.title().contains("2026-11-29"), "conditions in the title: " + chart.title());
        }

        String report = Files.readString(written.report());
        for (int seq : new int[] {64, 256}) {
            assertTrue(report.contains("### onnxruntime | cpu | tiny | seq " + seq), "bucket table for seq " + seq);
            assertTrue(report.contains("| onnxruntime | cpu | tiny | " + seq + " | **"), "verdict row for seq " + seq);
        }
        analysis.fits().forEach(f -> assertTrue(report.contains(f.reason()), "reason for seq " + f.seqLen()));
        assertTrue(report.contains("](plots/latency-onnxruntime-cpu-tiny.png)"), "plots embedded by relative link");
        assertTrue(report.contains("## Conditions") && report.contains("SHA-256"), "conditions with the model hash");
        assertTrue(report.contains("## Risks and caveats") && report.contains("fewer than 1000 measured passes"));
    }

    /** Not blank: many colours, and a real share of the pixels are not the white background. */
    private static void assertNotBlank(BufferedImage image, Path file) {
        Set<Integer> colours = new HashSet<>();
        long nonWhite = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                if (rgb != 0xFFFFFF) {
                    nonWhite++;
                }
            }
        }
        double share = nonWhite / (double) (image.getWidth() * image.getHeight());
        assertTrue(colours.size() > 20, file + " has only " + colours.size() + " colours");
        assertTrue(share > 0.02, file + " is " + (100 * share) + "% non-white");
    }

    /** report.md's conditions say how each model's inputs were filled: values, shapes, the axes and the spec's hash. */
    @Test
    void theConditionsShowEachModelsInputs() throws Exception {
        RunResult run = SampleRuns.sampleRun();
        var c = run.config();
        var inputs = new io.inferbench.results.RunConfig.ModelInputs("batch", null, java.util.Map.of("frames", 30L), "spec.json",
                "ab12", List.of(new io.inferbench.results.RunConfig.InputInfo("pixel_values", "float32",
                List.of("batch", "3", "64", "64"), "npy pixels.npy [32,3,64,64] sha256 cd34")));
        RunResult withInputs = run.withConfig(c.withModels(c.plan().models().stream().map(m -> new io.inferbench.results.RunConfig.ModelInfo(
                m.name(), m.sha256(), m.sizeBytes(), m.description(), inputs)).toList()));
        String report = Files.readString(ReportWriter.write(withInputs, withInputs.analysis(), dir).report());
        assertTrue(report.contains("| inputs of tiny | `pixel_values` float32 [batch, 3, 64, 64]: npy pixels.npy [32,3,64,64] "
                + "sha256 cd34; batch axis `batch`, swept axis none, bound {frames=30}; input spec spec.json (SHA-256 `ab12`) |"),
                report.lines().filter(l -> l.contains("inputs of")).toList().toString());
        assertEquals("batch only", io.inferbench.Text.seq(0));
        assertEquals("seq 64", io.inferbench.Text.seq(64));
        assertEquals("-", io.inferbench.Text.seqValue(0));
    }

    @Test
    void percentileAxisLabelsReadAsPercentiles() {
        assertEquals("0%", Charts.percentileLabel(1));
        assertEquals("90%", Charts.percentileLabel(10));
        assertEquals("99%", Charts.percentileLabel(100));
        assertEquals("99.9%", Charts.percentileLabel(1000));
        assertEquals("99.99%", Charts.percentileLabel(10000));
    }

    /**
     * The first section is the answers, before the conditions and tables: a line per series with its verdict, advice
     * and rho, and one per precision pair with its speed-up and agreement; a serving run adds the policy that carries
     * the most load under the SLA, a workload the bucket advice.
     */
    @Test
    void theReportOpensWithTheAnswers() throws Exception {
        RunResult run = SampleRuns.sampleRun();
        String report = Files.readString(ReportWriter.write(run, run.analysis(), dir).report());
        List<String> headings = report.lines().filter(l -> l.startsWith("## ")).toList();
        assertEquals("## Answers", headings.get(0), headings.toString());
        String answers = report.substring(report.indexOf("## Answers"), report.indexOf(headings.get(1)));
        for (var fit : run.analysis().fits()) {
            assertTrue(answers.contains("**onnxruntime | cpu | tiny | seq " + fit.seqLen() + "**: " + fit.verdictLabel() + ": "
                    + fit.regime().shortAdvice()), answers);
            assertTrue(answers.contains(String.format(Locale.ROOT, "rho %.2f", fit.relativeMarginalCost())), answers);
        }
        assertTrue(answers.contains("**tiny-int8 against tiny** (onnxruntime, cpu)") && answers.contains("outputs **DIFFER** at"),
                answers);

        SlaBoundary best = new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "batch<=8 wait 5 ms", 1,
                5.0, 8, 20), new SlaBoundary.Found(812.5, 3.0, 17.25, 4.1, true, SlaBoundary.MEASURED, false, 3.33),
                new SlaBoundary.Forecast(760.0, 0.94), List.of());
        SlaBoundary none = new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "no batching", 1, null, 1,
                20), new SlaBoundary.Found(null, null, null, null, null, SlaBoundary.NONE, false, 3.33),
                new SlaBoundary.Forecast(null, null), List.of());
        assertEquals("**Batching policy under a p99 SLA of 20 ms** (onnxruntime, cpu, tiny): **batch<=8 wait 5 ms** carries the "
                + "most, 812.5 requests/s at p99 17.250 ms; the simulation predicted 0.94x that.", AnswersReport.serving(List.of(none, best)));
        assertTrue(AnswersReport.serving(List.of(none)).contains("no policy met it at any rate down to the floor of 3.33"));
    }
}
