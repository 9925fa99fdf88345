package io.xferbench.server.request;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;

/**
 * Decides how a decoded native request is answered, the same on every I/O model: token, operation, method and limits
 * are checked here, once, and the outcome is a {@link Plan}. Nothing here blocks or touches a file or a socket.
 */
public final class RequestService {
    static final String NOT_A_PROXY = "this is an xferbench server, not a proxy: PROXY is served by "
            + "'xferbench-server --proxy-to HOST:PORT'";

    /** The method a GET without {@code ?method=} is sent by on a thread model. */
    public static final String HTTP_DEFAULT_ON_THREADS = "transfer-to";
    /** The event-loop models' own default, as they answered before a GET could name a method. */
    public static final String HTTP_DEFAULT_ON_LOOPS = "netty-auto";

    private final RequestRules rules;
    private final SenderChoice senders;

    public RequestService(RequestRules rules) {
        this(rules, SenderChoice.AS_LOOKED_UP);
    }

    /** @param senders what a download's method, looked up and checked, is answered by */
    public RequestService(RequestRules rules, SenderChoice senders) {
        this.rules = rules;
        this.senders = senders;
    }

    public RequestRules rules() {
        return rules;
    }

    public Plan decide(Request request) {
        if (!authorized(request.token())) {
            return Plan.Refusal.closing(Status.FORBIDDEN, "missing or wrong token");
        }
        return switch (request.op()) {
            case DOWNLOAD -> download(request);
            case UPLOAD -> upload(request);
            case PREPARE -> new Plan.Prepare(request);
            case STAT, DELETE, INFO -> new Plan.Files(request);
            case MEASURE_BEGIN -> new Plan.MeasureBegin(!request.has(Flags.NO_SYSCALL_COUNT));
            case MEASURE_END -> new Plan.MeasureEnd();
            case PROXY -> Plan.Refusal.closing(Status.BAD_REQUEST, NOT_A_PROXY);
        };
    }

    /**
     * Decides an HTTP request: a method other than GET and HEAD (405), a missing or wrong bearer token (403), an unknown
     * download method (400), and on a thread model a loop method or an unavailable one (503) are refused the same on
     * every model.
     */
    public HttpPlan decide(HttpRequest request) {
        boolean head = request.method().equals("HEAD");
        if (!head && !request.method().equals("GET")) {
            return new HttpPlan.Refusal(405, request.method() + " is not served over HTTP here (GET, HEAD; uploads use the native protocol)",
                    "Allow: GET, HEAD\r\n");
        }
        String auth = request.headers().getOrDefault("authorization", "");
        if (!authorized(auth.startsWith("Bearer ") ? auth.substring(7) : "")) {
            return new HttpPlan.Refusal(403, "missing or wrong token (Authorization: Bearer TOKEN)", "");
        }
        String methodId = request.query().getOrDefault("method", rules.onThreads() ? HTTP_DEFAULT_ON_THREADS : HTTP_DEFAULT_ON_LOOPS);
        SenderMethod method = DownloadMethods.byId(methodId).orElse(null);
        if (method == null) {
            return new HttpPlan.Refusal(400, unknownDownloadMethod(methodId), "");
        }
        if (rules.onThreads()) {
            Plan.Refusal refusal = onThreads(method);
            if (refusal != null) {
                return new HttpPlan.Refusal(503, refusal.message(), "");
            }
        }
        String tls = TlsRefusal.overHttp(method);
        if (tls != null) {
            return new HttpPlan.Refusal(503, tls, "");
        }
        String name = request.path().substring(1);
        return new HttpPlan.Get(request, name, senders.sender(method, name), head);
    }

    /** The token check, the same for both protocols (an HTTP request's bearer token included). */
    public boolean authorized(String token) {
        return rules.token().isEmpty() || Tokens.matches(rules.token(), token);
    }

    private Plan download(Request request) {
        SenderMethod method = DownloadMethods.byId(request.method()).orElse(null);
        if (method == null) {
            return Plan.Refusal.answered(Status.BAD_REQUEST, unknownDownloadMethod(request.method()));
        }
        if (rules.onThreads()) {
            Plan.Refusal refusal = onThreads(method);
            if (refusal != null) {
                return refusal;
            }
        }
        Plan.Refusal tls = TlsRefusal.of(request, method, rules);
        if (tls != null) {
            return tls;
        }
        // Only a TLS method's options carry the server's TLS end, so a plaintext method's sender is keyed as before.
        TransferOptions options = new TransferOptions(request.bufferSize(), request.has(Flags.UNALIGNED),
                method.traits().tls() ? rules.tls() : null);
        return new Plan.Download(request, senders.sender(method, request.name()), options,
                request.has(Flags.CACHE_COLD) || request.has(Flags.CACHE_WARM));
    }

    /** What a download method of a thread model is refused with (a loop method, an unavailable one); null if none. */
    public Plan.Refusal onThreads(SenderMethod method) {
        String loopOnly = LoopMethodRefusal.onThreads(method, rules.ioModel());
        if (loopOnly != null) {
            return Plan.Refusal.answered(Status.UNAVAILABLE, loopOnly);
        }
        Availability availability = method.availability();
        if (!availability.isAvailable()) {
            return Plan.Refusal.answered(Status.UNAVAILABLE, method.id() + ": " + availability.unavailableReason());
        }
        return null;
    }

    public static String unknownDownloadMethod(String asked) {
        return "unknown download method '" + asked + "' (known: " + String.join(", ", DownloadMethods.ids()) + ")";
    }

    private Plan upload(Request request) {
        ReceiverMethod method = UploadMethods.byId(request.method()).orElse(null);
        if (method == null) {
            return Plan.Refusal.answered(Status.BAD_REQUEST, "unknown upload method '" + request.method() + "' (known: "
                    + String.join(", ", UploadMethods.ids()) + ")");
        }
        if (rules.onThreads()) {
            Availability availability = method.availability();
            if (!availability.isAvailable()) {
                return Plan.Refusal.answered(Status.UNAVAILABLE, method.id() + ": " + availability.unavailableReason());
            }
        }
        Plan.Refusal refusal = uploadLimits(request);
        if (refusal != null) {
            return refusal;
        }
        if (rules.onThreads()) {
            try {
                method.checkSupported(request.size());
            } catch (UnsupportedTransferException e) {
                return Plan.Refusal.answered(Status.UNAVAILABLE, method.id() + ": " + e.getMessage());
            }
        }
        return new Plan.Upload(request, method, new TransferOptions(request.bufferSize(), request.has(Flags.UNALIGNED)));
    }

    /** The refusal of an upload no model may take, whatever its method; null when it may go on. */
    private Plan.Refusal uploadLimits(Request request) {
        if (request.name().isEmpty()) {
            return Plan.Refusal.answered(Status.BAD_REQUEST, "an upload needs the name of the file to create");
        }
        if (request.size() > rules.maxUpload()) {
            return Plan.Refusal.answered(Status.TOO_LARGE, "an upload of " + request.size() + " bytes exceeds --max-upload "
                    + rules.maxUpload());
        }
        return null;
    }

    /** The refusal of a generated file over the limit (a DOWNLOAD's or PREPARE's); null when it may be made. */
    public Refused generatedTooLarge(Request request) {
        if (request.name().isEmpty() && request.size() > rules.maxGenerated()) {
            return new Refused(Status.TOO_LARGE, "generated files are limited to " + rules.maxGenerated() + " bytes");
        }
        return null;
    }
}
