import com.sun.net.httpserver.*;
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.MessageDigest;
import java.time.*;
import java.time.format.DateTimeFormatter;
import java.util.*;
import java.util.concurrent.*;
import java.util.stream.*;

public class Server {
  static Set<String> DEV = new HashSet<>();
  static boolean dev(String id) { return DEV.contains("all") || DEV.contains(id); }
  static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  static String ts(Instant i) { return i == null ? null : TS.format(i); }
  static final int MAX_BODY = 8 * 1024 * 1024;

  // ---------------- JSON ----------------
  static class JP {
    final String s; int p = 0;
    JP(String s) { this.s = s; }
    static Object parse(String s) { JP j = new JP(s); j.ws(); Object v = j.val(); j.ws(); if (j.p != s.length()) throw new IllegalArgumentException("trailing data"); return v; }
    void ws() { while (p < s.length() && " \t\r\n".indexOf(s.charAt(p)) >= 0) p++; }
    Object val() {
      if (p >= s.length()) throw new IllegalArgumentException("eof");
      char c = s.charAt(p);
      if (c == '{') { p++; Map<String,Object> m = new LinkedHashMap<>(); ws(); if (peek('}')) { p++; return m; }
        while (true) { ws(); if (!peek('"')) throw new IllegalArgumentException("key"); String k = str(); ws(); exp(':'); ws(); m.put(k, val()); ws(); if (peek(',')) { p++; continue; } exp('}'); return m; } }
      if (c == '[') { p++; List<Object> l = new ArrayList<>(); ws(); if (peek(']')) { p++; return l; }
        while (true) { ws(); l.add(val()); ws(); if (peek(',')) { p++; continue; } exp(']'); return l; } }
      if (c == '"') return str();
      if (s.startsWith("true", p)) { p += 4; return Boolean.TRUE; }
      if (s.startsWith("false", p)) { p += 5; return Boolean.FALSE; }
      if (s.startsWith("null", p)) { p += 4; return null; }
      int st = p; if (peek('-')) p++;
      while (p < s.length() && "0123456789.eE+-".indexOf(s.charAt(p)) >= 0) p++;
      if (st == p) throw new IllegalArgumentException("bad token");
      return new java.math.BigDecimal(s.substring(st, p));
    }
    boolean peek(char c) { return p < s.length() && s.charAt(p) == c; }
    void exp(char c) { if (!peek(c)) throw new IllegalArgumentException("expected " + c); p++; }
    String str() { p++; StringBuilder b = new StringBuilder();
      while (true) { if (p >= s.length()) throw new IllegalArgumentException("eof in string"); char c = s.charAt(p++);
        if (c == '"') return b.toString();
        if (c == '\\') { char e = s.charAt(p++);
          switch (e) { case 'n' -> b.append('\n'); case 't' -> b.append('\t'); case 'r' -> b.append('\r'); case 'b' -> b.append('\b'); case 'f' -> b.append('\f');
            case 'u' -> { b.append((char) Integer.parseInt(s.substring(p, p + 4), 16)); p += 4; }
            case '"', '\\', '/' -> b.append(e); default -> throw new IllegalArgumentException("escape"); }
        } else if (c < 0x20) throw new IllegalArgumentException("control char"); else b.append(c); } }
  }
  static String json(Object o) { StringBuilder b = new StringBuilder(); w(b, o); return b.toString(); }
  @SuppressWarnings("unchecked")
  static void w(StringBuilder b, Object o) {
    if (o == null) b.append("null");
    else if (o instanceof String s) { b.append('"'); for (char c : s.toCharArray()) { switch (c) { case '"' -> b.append("\\\""); case '\\' -> b.append("\\\\"); case '\n' -> b.append("\\n"); case '\r' -> b.append("\\r"); case '\t' -> b.append("\\t");
          default -> { if (c < 0x20) b.append(String.format("\\u%04x", (int) c)); else b.append(c); } } } b.append('"'); }
    else if (o instanceof Double d) { if (d.isNaN() || d.isInfinite()) b.append("null"); else if (d == Math.rint(d) && Math.abs(d) < 1e15) b.append((long) (double) d); else b.append(d); }
    else if (o instanceof java.math.BigDecimal d) b.append(d.toString());
    else if (o instanceof Number || o instanceof Boolean) b.append(o);
    else if (o instanceof Map<?,?> m) { b.append('{'); boolean f = true; for (var e : m.entrySet()) { if (!f) b.append(','); f = false; w(b, String.valueOf(e.getKey())); b.append(':'); w(b, e.getValue()); } b.append('}'); }
    else if (o instanceof Collection<?> l) { b.append('['); boolean f = true; for (Object x : l) { if (!f) b.append(','); f = false; w(b, x); } b.append(']'); }
    else w(b, o.toString());
  }
  static Map<String,Object> o(Object... kv) { Map<String,Object> m = new LinkedHashMap<>(); for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]); return m; }
  static double r2(double d) { return Math.round(d * 100.0) / 100.0; }

  // ---------------- model ----------------
  record Key(String value, String org, Set<String> scopes, boolean expired, boolean revoked, String name) {}
  record Tag(String id, String value, String group) {}
  record Agent(String id, String name, String email, String role) {}
  record Msg(String id, Instant ts, String author, String authorId, String type, String text, String parent) {}
  record FieldDef(String name, String display, String type, List<String> options) {}
  static class Action {
    String org, id, title, summary, status, platform, recordType, sourceURL, queue, initialQueue, sentiment, moderation;
    boolean pub; Double sentimentScore; Agent assignee;
    String userName, userUsername, userId, userEmail; Long followers;
    Instant createdAt, updatedAt, initialMessageTime, initialResponseTime, closeTime, claimTime;
    Long frt, handle; String serverName, channelName, csatScore, csatFeedback; Double estCsat;
    List<Tag> tags = new ArrayList<>(), closingTags = new ArrayList<>();
    Map<String,Object> custom = new LinkedHashMap<>(); Map<String,Object> prov = new LinkedHashMap<>();
    String rootText, threadId, easyId, contributors; List<Msg> msgs = new ArrayList<>(); List<Map<String,Object>> comments = new ArrayList<>();
    double actionability, relevance, resQuality, sentChange, rubric;
    boolean responded() { return initialResponseTime != null; }
    long count(String t) { return msgs.stream().filter(m -> m.type.equals(t)).count(); }
  }
  static class Org { String id; boolean adPolicy; List<Action> actions = new ArrayList<>(); Map<String,Action> byId = new HashMap<>(); List<Agent> agents = new ArrayList<>();
    List<Tag> tagCat = new ArrayList<>(); Map<String,FieldDef> fields = new LinkedHashMap<>();
    Map<String,Case> cases = new ConcurrentHashMap<>(); Map<String,Case> casesByExt = new ConcurrentHashMap<>(); Map<String,Object> ingested = new ConcurrentHashMap<>(); }
  static class Case { String id, ext, evalId, content, idemKey; long t0; Map<String,Object> sub; }
  static Map<String,Org> ORGS = new LinkedHashMap<>();
  static Map<String,Key> KEYS = new LinkedHashMap<>();
  static Map<String,Action> GLOBAL = new HashMap<>();

  // ---------------- seed ----------------
  static String[] PLATFORMS = {"DISCORD", "SLACK", "ZENDESK", "TWITTER", "INSTAGRAM", "GITHUB"};
  static String[] STATUSES = {"OPEN", "IN_PROGRESS", "WAITING_ON_CUSTOMER", "CLOSED", "CLOSED", "CANCELLED"};
  static String[] SENTS = {"Very Negative", "Negative", "Neutral", "Positive"};
  static String dur(long s) { return String.format("%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60); }
  static void seed(long seed) {
    Instant now = dev("X01") ? Instant.now() : Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    Random r = new Random(seed);
    String[][] orgDefs = {{"org_acme", "true", "340"}, {"org_globex", "false", "45"}, {"org_initech", "false", "20"}};
    for (String[] od : orgDefs) {
      Org org = new Org(); org.id = od[0]; org.adPolicy = Boolean.parseBoolean(od[1]); ORGS.put(org.id, org);
      String px = org.id.substring(4, 6);
      String[] agentIds = {"U0" + px.toUpperCase() + "7QK2M", "884512307719045121", "0042", "agt-" + px + "-sam", "1029384756102938475", "agt-" + px + "-lee"};
      String[] agentNames = {"Dana Whitfield", "Marco Silva", "Priya Raman", "Sam Okafor", "Lena Fischer", "Jun Park"};
      int na = org.id.equals("org_acme") ? 6 : 3;
      for (int i = 0; i < na; i++) org.agents.add(new Agent(agentIds[i], agentNames[(i + (org.id.equals("org_acme") ? 0 : 3)) % 6], agentNames[i].split(" ")[0].toLowerCase() + "@" + org.id.substring(4) + ".example", i == 0 ? "ADMIN" : "AGENT"));
      String[][] tags = org.id.equals("org_globex") ? new String[][]{{"returns", "Topic"}, {"warranty", "Topic"}, {"delivery", "Topic"}, {"angry", "Tone"}, {"happy", "Tone"}}
          : new String[][]{{"billing", "Topic"}, {"refund", "Topic"}, {"login-issue", "Topic"}, {"bug-report", "Topic"}, {"feature-request", "Topic"}, {"shipping", "Topic"}, {"complaint", "Intent"}, {"question", "Intent"}, {"praise", "Intent"}, {"urgent", "Priority"}};
      int ti = 0; for (String[] t : tags) org.tagCat.add(new Tag("tg" + px + String.format("%03d", ++ti), t[0], t[1]));
      List<Tag> closing = List.of(new Tag("tg" + px + "901", "resolved-first-contact", "Resolution"), new Tag("tg" + px + "902", "escalated", "Resolution"), new Tag("tg" + px + "903", "no-response-needed", "Resolution"));
      if (org.id.equals("org_acme")) {
        org.fields.put("priority_level", new FieldDef("priority_level", "Priority level", "select", List.of("low", "medium", "high", "critical")));
        org.fields.put("revenue_impact", new FieldDef("revenue_impact", "Revenue impact", "number", null));
        org.fields.put("is_escalated", new FieldDef("is_escalated", "Escalated", "boolean", null));
        org.fields.put("account_notes", new FieldDef("account_notes", "Account notes", "text", null));
        org.fields.put("product_areas", new FieldDef("product_areas", "Product areas", "multi_select", List.of("billing", "onboarding", "api", "mobile")));
      } else if (org.id.equals("org_globex")) {
        org.fields.put("region", new FieldDef("region", "Region", "select", List.of("emea", "amer", "apac")));
        org.fields.put("churn_risk", new FieldDef("churn_risk", "Churn risk", "number", null));
      } else org.fields.put("notes", new FieldDef("notes", "Notes", "text", null));
      String[] queues = org.id.equals("org_globex") ? new String[]{"Returns", "General"} : new String[]{"Billing", "Technical Support", "General", "VIP"};
      int n = Integer.parseInt(od[2]);
      for (int i = 0; i < n; i++) {
        Action a = new Action(); a.org = org.id;
        long base = org.id.equals("org_acme") ? 1000000 : org.id.equals("org_globex") ? 2000000 : 3000000;
        if (org.id.equals("org_acme") && i % 37 == 5) a.id = String.valueOf(new java.math.BigInteger("9007199254740993").add(java.math.BigInteger.valueOf(i * 2L)));
        else if (org.id.equals("org_acme") && i % 41 == 7) a.id = "000" + (4800 + i);
        else a.id = String.valueOf(base + i * 7L + 3);
        if (org.id.equals("org_globex") && i == 0) a.id = "1000017";
        a.platform = PLATFORMS[r.nextInt(PLATFORMS.length)];
        a.pub = a.platform.equals("TWITTER") || a.platform.equals("INSTAGRAM") || a.platform.equals("GITHUB");
        a.recordType = r.nextInt(12) == 0 ? null : switch (a.platform) { case "ZENDESK" -> "ticket"; case "GITHUB" -> "issue"; case "TWITTER", "INSTAGRAM" -> "post"; default -> "message"; };
        long ageSec = r.nextInt(10) < 8 ? r.nextInt(7 * 86400 - 600) + 300 : 7 * 86400 + r.nextInt(53 * 86400);
        a.createdAt = now.minusSeconds(ageSec).minusMillis(r.nextInt(1000));
        a.initialMessageTime = a.createdAt;
        a.status = STATUSES[r.nextInt(STATUSES.length)];
        boolean responded = !a.status.equals("OPEN") ? r.nextInt(10) < 9 : r.nextInt(10) < 3;
        if (r.nextInt(9) > 0) a.assignee = org.agents.get(r.nextInt(org.agents.size()));
        String[] firsts = {"Alex", "Maria", "Chen", "Fatima", "Olu", "Ines", "Tom", "Yuki", "Ravi", "Nora"};
        String fn = firsts[r.nextInt(firsts.length)];
        a.userName = fn + " " + (char) ('A' + r.nextInt(26)) + ".";
        a.userUsername = fn.toLowerCase() + r.nextInt(9999);
        a.userId = a.platform.equals("DISCORD") ? String.valueOf(900719925474099200L + r.nextInt(1000000) * 1000L + r.nextInt(999)) : a.platform.equals("TWITTER") ? String.valueOf(1400000000000000000L + (long) (r.nextDouble() * 1e17)) : "u_" + Integer.toHexString(r.nextInt(1 << 24));
        if (r.nextInt(5) == 0) a.userId = "0" + (10000 + r.nextInt(90000));
        a.userEmail = a.platform.equals("ZENDESK") ? fn.toLowerCase() + "@mail.example" : null;
        a.followers = a.pub ? (long) r.nextInt(50000) : null;
        a.queue = r.nextInt(10) == 0 ? null : queues[r.nextInt(queues.length)];
        a.initialQueue = a.queue == null ? null : (r.nextInt(4) == 0 ? queues[r.nextInt(queues.length)] : a.queue);
        int si = r.nextInt(4); a.sentiment = r.nextInt(20) == 0 ? null : SENTS[si];
        a.sentimentScore = a.sentiment == null ? null : r2(new double[]{-0.85, -0.4, 0.0, 0.6}[si] + r.nextDouble() * 0.2 - 0.1);
        a.moderation = r.nextInt(6) == 0 ? "FLAGGED" : r.nextInt(3) == 0 ? null : "SAFE";
        a.serverName = switch (a.platform) { case "DISCORD" -> org.id.substring(4) + " Community"; case "SLACK" -> org.id.substring(4) + "-customers"; case "ZENDESK" -> org.id.substring(4) + ".zendesk"; default -> "@" + org.id.substring(4); };
        a.channelName = switch (a.platform) { case "DISCORD", "SLACK" -> new String[]{"#help", "#general", "#bugs"}[r.nextInt(3)]; case "ZENDESK" -> "Email"; case "GITHUB" -> "issues"; default -> "mentions"; };
        String topicPool = org.tagCat.get(r.nextInt(org.tagCat.size())).value();
        a.title = "Customer " + (r.nextBoolean() ? "asks about " : "reports problem with ") + topicPool + " (" + org.id.substring(4) + ")";
        a.summary = a.userName + " contacted support via " + a.platform.toLowerCase() + " regarding " + topicPool + ".";
        a.rootText = r.nextInt(15) == 0 ? null : "Hi, I need help with " + topicPool + ". Ref " + a.id;
        int nt = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(3);
        Set<Tag> ts = new LinkedHashSet<>(); for (int k = 0; k < nt; k++) ts.add(org.tagCat.get(r.nextInt(org.tagCat.size()))); a.tags.addAll(ts);
        int nu = 1 + r.nextInt(4); int ng = responded ? 1 + r.nextInt(3) : 0;
        Instant t = a.createdAt; String prev = null; int mi = 0; long frt = 60 + r.nextInt(7200);
        List<Boolean> seq = new ArrayList<>(); seq.add(false); nu--;
        while (nu > 0 || ng > 0) { if (ng > 0 && (seq.get(seq.size() - 1) == false || nu == 0)) { seq.add(true); ng--; } else { seq.add(false); nu--; } }
        for (int k = 0; k < seq.size(); k++) {
          boolean agent = seq.get(k);
          if (agent && a.initialResponseTime == null) t = a.createdAt.plusSeconds(frt); else if (k > 0) t = t.plusSeconds(30 + r.nextInt(1800));
          if (t.isAfter(now)) t = now.minusSeconds(1);
          Agent ag = a.assignee != null ? a.assignee : org.agents.get(0);
          String id = "m" + a.id + "-" + (++mi);
          a.msgs.add(new Msg(id, t, agent ? ag.name() : a.userName, agent ? ag.id() : a.userId, agent ? "AGENT" : "USER", agent ? "Thanks for reaching out, looking into it." : (k == 0 && a.rootText != null ? a.rootText : "Any update on this?"), prev));
          if (agent && a.initialResponseTime == null) a.initialResponseTime = t;
          prev = id;
        }
        if (a.initialResponseTime != null) a.frt = Duration.between(a.createdAt, a.initialResponseTime).getSeconds();
        Instant last = a.msgs.get(a.msgs.size() - 1).ts();
        if (a.assignee != null) a.claimTime = a.createdAt.plusSeconds(20 + r.nextInt(600)).isAfter(now) ? now : a.createdAt.plusSeconds(20 + r.nextInt(600));
        if (a.status.equals("CLOSED") || a.status.equals("CANCELLED")) { a.closeTime = last.plusSeconds(60 + r.nextInt(3600)); if (a.closeTime.isAfter(now)) a.closeTime = now; a.handle = Duration.between(a.createdAt, a.closeTime).getSeconds();
          a.closingTags.add(closing.get(r.nextInt(closing.size()))); }
        Instant up = a.closeTime != null ? a.closeTime : last; a.updatedAt = r.nextInt(20) == 0 ? null : up;
        if (a.status.equals("CLOSED") && r.nextInt(10) < 5) { a.csatScore = String.valueOf(1 + r.nextInt(5)); a.csatFeedback = r.nextBoolean() ? "Quick and helpful" : null; }
        a.estCsat = r.nextInt(8) == 0 ? null : r2(1 + r.nextDouble() * 4);
        a.sourceURL = a.pub ? "https://" + a.platform.toLowerCase() + ".example/p/" + a.id : null;
        a.threadId = "th-" + a.id; a.easyId = r.nextInt(8) == 0 ? null : px.toUpperCase() + "-" + (1000 + i);
        a.contributors = a.assignee == null ? null : a.userName + ", " + a.assignee.name();
        a.actionability = r2(r.nextDouble()); a.relevance = r2(r.nextDouble()); a.resQuality = r2(1 + r.nextDouble() * 4); a.sentChange = r2(r.nextDouble() * 2 - 1); a.rubric = r2(40 + r.nextDouble() * 60);
        if (r.nextInt(4) == 0 && a.assignee != null) a.comments.add(o("text", "Internal: checked account history", "authorNativeId", a.assignee.id(), "authorNativeName", a.assignee.name()));
        for (FieldDef f : org.fields.values()) if (r.nextInt(3) == 0) {
          Object v = switch (f.type()) { case "select" -> f.options().get(r.nextInt(f.options().size())); case "number" -> (double) r.nextInt(5000); case "boolean" -> r.nextBoolean(); case "multi_select" -> List.of(f.options().get(r.nextInt(f.options().size()))); default -> "seeded note " + i; };
          a.custom.put(f.name(), v); a.prov.put(f.name(), o("source", "seed", "updatedAt", ts(a.createdAt)));
        }
        org.actions.add(a); org.byId.put(a.id, a); GLOBAL.putIfAbsent(a.id, a);
      }
      if (org.id.equals("org_globex")) { Action g = org.byId.get("1000017"); g.title = "Globex warranty claim"; g.summary = "Warranty claim for a broken blender."; }
    }
    String[][] keys = {
      {"CCA_READ_KEY", "cca_live_rd_A7f3c19e5b2d", "org_acme", "read", "", ""},
      {"CCA_WRITE_KEY", "cca_live_wr_A0b8e4d27c61", "org_acme", "write", "", ""},
      {"CCA_INGEST_KEY", "cca_live_in_A5d2f8a01e93", "org_acme", "ingest,ingest:read", "", ""},
      {"CCA_OTHER_ORG_READ_KEY", "cca_live_rd_B3e9a7c64f10", "org_globex", "read", "", ""},
      {"CCA_NO_MODERATION_WRITE_KEY", "cca_live_wr_C6c1b5e92a47", "org_initech", "write", "", ""},
      {"CCA_EXPIRED_KEY", "cca_live_rd_A9a4d0f3b8e2", "org_acme", "read", "x", ""},
      {"CCA_REVOKED_KEY", "cca_live_rd_A2f7b6c15d09", "org_acme", "read", "", "x"},
      {"CCA_READ_WRITE_KEY", "cca_live_rw_A8c3e2b70f54", "org_acme", "read,write", "", ""}};
    Map<String,Object> kj = new LinkedHashMap<>();
    for (String[] k : keys) { KEYS.put(k[1], new Key(k[1], k[2], Set.of(k[3].split(",")), !k[4].isEmpty(), !k[5].isEmpty(), k[0])); kj.put(k[0], k[1]); }
    try { Files.writeString(Path.of(System.getProperty("keysFile", "/work/foreign/java/keys.json")), json(kj) + "\n"); } catch (IOException e) { System.err.println("cannot write keys.json: " + e); }
  }

  // ---------------- HTTP plumbing ----------------
  static class Http extends RuntimeException { int code; Map<String,Object> body; Http(int c, String msg) { this(c, o("success", false, "error", msg)); } Http(int c, Map<String,Object> b) { super(String.valueOf(b.get("error"))); code = c; body = b; } }
  record Req(HttpExchange ex, String method, String path, Map<String,String> q, Key key, Org org) {
    String body() { try (InputStream in = ex.getRequestBody()) { byte[] b = in.readNBytes(MAX_BODY + 1); if (b.length > MAX_BODY) throw new Http(413, "Request body too large"); return new String(b, StandardCharsets.UTF_8); } catch (IOException e) { throw new Http(400, "Unreadable body"); } }
  }
  static void send(HttpExchange ex, int code, String ctype, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", ctype);
    ex.sendResponseHeaders(code, b.length == 0 ? -1 : b.length);
    if (b.length > 0) try (OutputStream os = ex.getResponseBody()) { os.write(b); }
    ex.close();
  }
  static Map<String,String> query(String raw) {
    Map<String,String> m = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) return m;
    for (String part : raw.split("&")) { if (part.isEmpty()) continue; int i = part.indexOf('=');
      String k = URLDecoder.decode(i < 0 ? part : part.substring(0, i), StandardCharsets.UTF_8), v = i < 0 ? "" : URLDecoder.decode(part.substring(i + 1), StandardCharsets.UTF_8);
      m.putIfAbsent(k, v); }
    return m;
  }
  static void handle(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getRawPath(); String method = ex.getRequestMethod();
      Map<String,String> q;
      try { q = query(ex.getRequestURI().getRawQuery()); } catch (IllegalArgumentException e) { throw new Http(400, "Malformed query string"); }
      if (path.equals("/docs/json") || path.equals("/docs/json/")) { if (!method.equals("GET")) throw new Http(405, "Method not allowed"); send(ex, 200, "application/json", json(openapi())); return; }
      if (path.equals("/docs") || path.equals("/docs/")) { if (!method.equals("GET")) throw new Http(405, "Method not allowed"); send(ex, 200, "text/html; charset=utf-8", DOCS_HTML); return; }
      if (!path.startsWith("/v0/")) throw new Http(404, "Not found");
      String kv = ex.getRequestHeaders().getFirst("X-API-Key");
      if (kv == null || kv.isBlank()) throw new Http(401, "Missing API key");
      Key key = KEYS.get(kv.trim());
      if (key == null) throw new Http(401, "Invalid API key");
      if (key.revoked()) throw new Http(401, "API key has been revoked");
      if (key.expired()) { if (dev("D12")) throw new Http(403, "API key has expired"); throw new Http(401, "API key has expired"); }
      String[] seg = Arrays.stream(path.substring(4).split("/")).map(s -> URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8)).toArray(String[]::new);
      Req rq = new Req(ex, method, path, q, key, ORGS.get(key.org()));
      Object res = route(rq, seg);
      if (res instanceof Object[] arr) send(ex, (Integer) arr[0], "application/json", json(arr[1]));
      else send(ex, 200, "application/json", json(res));
    } catch (Http h) { send(ex, h.code, "application/json", json(h.body)); }
    catch (Exception e) { e.printStackTrace(); try { send(ex, 500, "application/json", json(o("success", false, "error", "Internal server error"))); } catch (Exception ignore) {} }
  }
  static void need(Req r, String scope) { if (!r.key().scopes().contains(scope)) throw new Http(403, "API key lacks required scope '" + scope + "'"); }
  static void method(Req r, String m) { if (!r.method().equals(m)) throw new Http(405, "Method not allowed"); }
  static Object route(Req r, String[] s) {
    int n = s.length;
    if (n == 2 && s[0].equals("action") && s[1].equals("list")) { method(r, "GET"); need(r, "read"); return actionList(r); }
    if (n == 2 && s[0].equals("action")) { method(r, "GET"); need(r, "read"); return actionDetail(r, s[1]); }
    if (n == 3 && s[0].equals("actions") && s[2].equals("custom-fields")) {
      if (r.method().equals("GET")) { need(r, "read"); return cfGet(r, s[1]); }
      if (r.method().equals("PATCH")) { need(r, "write"); return cfPatch(r, s[1]); }
      throw new Http(405, "Method not allowed"); }
    if (n == 1 && s[0].equals("agents")) { method(r, "GET"); need(r, "read"); return agents(r, null); }
    if (n == 2 && s[0].equals("agents")) { method(r, "GET"); need(r, "read"); return agents(r, s[1]); }
    if (n == 1 && s[0].equals("queues")) { method(r, "GET"); need(r, "read"); return queues(r); }
    if (n >= 2 && s[0].equals("analytics")) { method(r, "GET"); need(r, "read");
      String k = String.join("/", Arrays.copyOfRange(s, 1, n));
      switch (k) { case "tags": return tags(r); case "tags/volume": return tagVolume(r); case "sentiment": return sentiment(r); case "sentiment/by-tag": return sentimentByTag(r); case "engagement": return engagement(r); } }
    if (n == 2 && s[0].equals("conversations") && s[1].equals("search")) { method(r, "GET"); need(r, "read"); return search(r); }
    if (s[0].equals("moderation") && n >= 2 && s[1].equals("cases")) {
      if (n == 2) { method(r, "POST"); modGate(r); return modSingle(r); }
      if (n == 3 && s[2].equals("batch") && r.method().equals("POST")) { modGate(r); return modBatch(r); }
      if (n == 3) { method(r, "GET"); need(r, "read"); return modGet(r, s[2]); } }
    if (n == 2 && s[0].equals("ingest") && s[1].equals("records")) { method(r, "POST");
      if (!(r.key().scopes().contains("ingest") || (dev("D10") && r.key().scopes().contains("write")))) throw new Http(403, "API key lacks ingestion permission");
      return ingest(r); }
    throw new Http(404, "Not found");
  }

  // ---------------- shared helpers ----------------
  static Instant parseDate(String v, String name, boolean endOfDay) {
    if (v == null || v.isEmpty()) return null;
    try {
      if (v.matches("\\d{4}-\\d{2}-\\d{2}")) { LocalDate d = LocalDate.parse(v); return endOfDay ? d.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1) : d.atStartOfDay().toInstant(ZoneOffset.UTC); }
      if (v.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?")) return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
      return OffsetDateTime.parse(v).toInstant();
    } catch (Exception e) { throw new Http(400, "Invalid '" + name + "': expected ISO 8601 date or timestamp"); }
  }
  static Instant[] window(Req r, int defDays, boolean toEnd) {
    Instant now = Instant.now();
    Instant from = parseDate(r.q().get("from"), "from", false), to = parseDate(r.q().get("to"), "to", toEnd);
    if (to == null) to = now;
    if (from == null) from = (r.q().get("to") == null ? now : to).minus(Duration.ofDays(defDays));
    if (from.isAfter(to)) throw new Http(400, "'from' must not be after 'to'");
    return new Instant[]{from, to};
  }
  static boolean in(Instant t, Instant[] w, boolean toExclusive) { return t != null && !t.isBefore(w[0]) && (toExclusive ? t.isBefore(w[1]) : !t.isAfter(w[1])); }
  static Integer intParam(Req r, String name, int def, int min, int max) {
    String v = r.q().get(name);
    if (v == null) return def;
    if (!v.matches("\\d{1,9}")) throw new Http(400, "'" + name + "' must be an integer between " + min + " and " + max);
    int i = Integer.parseInt(v);
    if (i < min || i > max) throw new Http(400, "'" + name + "' must be an integer between " + min + " and " + max);
    return i;
  }
  static Boolean boolParam(Req r, String name, Boolean def) {
    String v = r.q().get(name);
    if (v == null) return def;
    if (v.equals("true")) return true; if (v.equals("false")) return false;
    throw new Http(400, "'" + name + "' must be true or false");
  }
  static java.util.function.Predicate<Action> dsl(String f, String param) {
    java.util.function.Predicate<Action> p = a -> true;
    if (f == null || f.isBlank()) return p;
    for (String term : f.trim().split("[+ ](?=[A-Za-z_][A-Za-z0-9_.]*=)|\\+")) {
      if (term.isBlank()) continue;
      int i = term.indexOf('=');
      if (i <= 0) throw new Http(400, "Invalid " + param + " term '" + term + "': expected key=value");
      String k = term.substring(0, i).trim(); Set<String> vals = new HashSet<>(Arrays.asList(term.substring(i + 1).split(",")));
      java.util.function.Function<Action,Object> g = switch (k) {
        case "platform" -> a -> a.platform; case "status" -> a -> a.status; case "queue" -> a -> a.queue; case "initialQueue" -> a -> a.initialQueue;
        case "sentiment" -> a -> a.sentiment; case "assigneeUserId" -> a -> a.assignee == null ? null : a.assignee.id(); case "userId" -> a -> a.userId;
        case "actionId" -> a -> a.id; case "recordType" -> a -> a.recordType; case "serverName" -> a -> a.serverName; case "channelName" -> a -> a.channelName;
        case "responded" -> a -> String.valueOf(a.responded()); case "isPublicPost" -> a -> String.valueOf(a.pub);
        case "tag" -> null;
        default -> throw new Http(400, "Unknown " + param + " key '" + k + "'"); };
      if (g == null) p = p.and(a -> a.tags.stream().anyMatch(t -> vals.contains(t.value()) || vals.contains(t.id())));
      else p = p.and(a -> { Object v = g.apply(a); return v != null && vals.contains(v.toString()); });
    }
    return p;
  }
  static Map<String,Object> tagJ(Tag t) { return o("value", t.value(), "group", t.group()); }
  static Map<String,Object> summary(Action a, boolean conv) {
    Map<String,Object> m = o("actionId", a.id, "actionTitle", a.title, "actionSummary", a.summary, "status", a.status, "platform", a.platform, "recordType", a.recordType,
      "isPublicPost", a.pub, "serviceURL", "https://app.cca.example/actions/" + a.id, "sourceURL", a.sourceURL, "queue", a.queue, "initialQueue", a.initialQueue,
      "sentiment", a.sentiment, "sentimentScore", a.sentimentScore, "moderation", a.moderation,
      "assigneeName", a.assignee == null ? null : a.assignee.name(), "assigneeEmail", a.assignee == null ? null : a.assignee.email(),
      "assigneeUserId", a.assignee == null ? null : a.assignee.id(), "assigneeRole", a.assignee == null ? null : a.assignee.role(),
      "userName", a.userName, "userUsername", a.userUsername, "userId", a.userId, "userEmail", a.userEmail, "userFollowerCount", a.followers,
      "createdAt", ts(a.createdAt), "updatedAt", ts(a.updatedAt), "initialMessageTime", ts(a.initialMessageTime), "initialResponseTime", ts(a.initialResponseTime),
      "closeTime", ts(a.closeTime), "claimTime", ts(a.claimTime), "firstResponseTime", a.frt == null ? null : dur(a.frt), "handleTime", a.handle == null ? null : dur(a.handle),
      "serverName", a.serverName, "channelName", a.channelName, "csatScore", a.csatScore, "csatFeedback", a.csatFeedback, "estimatedCSAT", a.estCsat,
      "totalMessages", a.msgs.size(), "totalUserMessages", a.count("USER"), "totalAgentMessages", a.count("AGENT"),
      "tags", a.tags.stream().map(Server::tagJ).toList(), "closingTags", a.closingTags.stream().map(Server::tagJ).toList(),
      "customFields", new LinkedHashMap<>(a.custom), "rootMessageText", a.rootText, "conversationJson", conv ? json(convo(a)) : null);
    return m;
  }
  static List<Object> convo(Action a) { return a.msgs.stream().map(m -> (Object) o("id", m.id(), "timestamp", ts(m.ts()), "author", m.author(), "authorId", m.authorId(), "authorType", m.type(), "message", m.text(), "parentMessageId", m.parent(), "mediaUrls", List.of())).toList(); }

  // ---------------- actions ----------------
  static Object actionList(Req r) {
    Map<String,String> q = r.q();
    int pageSize = dev("D01") ? intParam(r, "pageSize", 50, 1, 499) : intParam(r, "pageSize", 50, 1, 500);
    String full = q.get("fullFilter"); if (full != null && full.isEmpty()) full = null;
    if (full != null && full.length() > 10000) throw new Http(400, "'fullFilter' exceeds 10000 characters");
    if (full != null && (q.containsKey("filter") || (q.containsKey("filterJson") && !dev("D14")))) throw new Http(400, "'fullFilter' cannot be combined with 'filter' or 'filterJson'");
    String sortBy = q.getOrDefault("sortBy", "createdAt");
    if (!sortBy.equals("createdAt") && !sortBy.equals("updatedAt")) throw new Http(400, "'sortBy' must be createdAt or updatedAt");
    boolean conv = boolParam(r, "includeFullConversation", false);
    Boolean responded = full == null ? Boolean.TRUE : null;
    if (q.containsKey("filter")) { java.util.regex.Matcher m = java.util.regex.Pattern.compile("responded\\s*[=:]\\s*(true|false)").matcher(q.get("filter")); if (m.find()) responded = Boolean.parseBoolean(m.group(1)); }
    if (q.containsKey("filterJson")) {
      Object fj; try { fj = JP.parse(q.get("filterJson")); } catch (Exception e) { throw new Http(400, "'filterJson' is not valid JSON"); }
      if (!(fj instanceof Map<?,?> fm)) throw new Http(400, "'filterJson' must be a JSON object");
      Object rv = fm.get("responded");
      if (rv instanceof Boolean b) responded = b; else if (rv != null) throw new Http(400, "'filterJson.responded' must be a boolean");
    }
    java.util.function.Predicate<Action> p = dsl(full, "fullFilter");
    Instant[] w = window(r, 7, dev("D02"));
    boolean byUpd = sortBy.equals("updatedAt");
    final Boolean resp = responded;
    List<Action> all = r.org().actions.stream().filter(a -> in(byUpd ? a.updatedAt : a.createdAt, w, false)).filter(a -> resp == null || a.responded() == resp).filter(p)
      .sorted(Comparator.comparing((Action a) -> byUpd ? a.updatedAt : a.createdAt).reversed().thenComparing(a -> a.id)).toList();
    List<Object> data = all.stream().limit(pageSize).map(a -> (Object) summary(a, conv)).toList();
    return o("data", data, "totalRecords", all.size(), "currentPage", 1, "pageSize", pageSize, "totalPages", (all.size() + pageSize - 1) / pageSize);
  }
  static Action find(Req r, String id) {
    Action a = r.org().byId.get(id);
    if (dev("D06") && GLOBAL.containsKey(id) && a != null) a = GLOBAL.get(id);
    if (a == null && dev("D05") && id.matches("0+\\d+")) { String s = id.replaceFirst("^0+(?=\\d)", ""); a = r.org().byId.get(s);
      if (a == null) for (Action x : r.org().actions) if (x.id.replaceFirst("^0+(?=\\d)", "").equals(s)) { a = x; break; } }
    return a;
  }
  static Object actionDetail(Req r, String id) {
    Action a = find(r, id);
    if (a == null) throw new Http(404, "Action not found");
    Map<String,Object> m = o("actionId", a.id, "actionTitle", a.title, "actionSummary", a.summary, "platform", a.platform, "recordType", a.recordType, "isPublicPost", a.pub,
      "user", o("name", a.userName, "username", a.userUsername, "userId", a.userId, "email", a.userEmail, "followerCount", a.followers),
      "sentiment", a.sentiment, "sentimentScore", a.sentimentScore, "queue", a.queue, "initialQueue", a.initialQueue, "status", a.status, "createdAt", ts(a.createdAt),
      "serviceURL", "https://app.cca.example/actions/" + a.id, "sourceURL", a.sourceURL, "updatedAt", ts(a.updatedAt), "initialMessageTime", ts(a.initialMessageTime),
      "initialResponseTime", ts(a.initialResponseTime), "closeTime", ts(a.closeTime), "firstResponseTime", a.frt == null ? null : dur(a.frt), "handleTime", a.handle == null ? null : dur(a.handle),
      "claimTime", ts(a.claimTime),
      "assignee", o("name", a.assignee == null ? null : a.assignee.name(), "email", a.assignee == null ? null : a.assignee.email(), "userId", a.assignee == null ? null : a.assignee.id(), "role", a.assignee == null ? null : a.assignee.role()),
      "serverName", a.serverName, "channelName", a.channelName, "tags", a.tags.stream().map(Server::tagJ).toList(), "closingTags", a.closingTags.stream().map(Server::tagJ).toList(),
      "moderation", a.moderation, "comments", a.comments,
      "messages", a.msgs.stream().map(x -> o("id", x.id(), "timestamp", ts(x.ts()), "author", x.author(), "authorId", x.authorId(), "authorType", x.type(), "message", x.text(), "mediaUrls", List.of())).toList(),
      "conversation", convo(a), "rootMessageText", a.rootText, "customFields", new LinkedHashMap<>(a.custom), "csatScore", a.csatScore, "csatFeedback", a.csatFeedback, "estimatedCSAT", a.estCsat,
      "totalMessages", a.msgs.size(), "totalUserMessages", a.count("USER"), "totalAgentMessages", a.count("AGENT"));
    return m;
  }
  static Object cfGet(Req r, String id) {
    Action a = find(r, id);
    if (a == null) throw new Http(404, "Action not found");
    List<Object> fs = new ArrayList<>();
    synchronized (a) { for (FieldDef f : r.org().fields.values()) { Map<String,Object> m = o("fieldName", f.name(), "displayName", f.display(), "fieldType", f.type(), "value", a.custom.get(f.name())); if (a.prov.containsKey(f.name())) m.put("provenance", a.prov.get(f.name())); fs.add(m); } }
    return o("actionId", a.id, "fields", fs);
  }
  static Object cfPatch(Req r, String id) {
    Action a = find(r, id);
    if (a == null) throw new Http(404, "Action not found");
    Object body; try { body = JP.parse(r.body()); } catch (IllegalArgumentException e) { throw new Http(422, o("success", false, "error", "Request body must be valid JSON", "fieldErrors", o("body", "invalid JSON"))); }
    Map<String,Object> fe = new LinkedHashMap<>();
    if (!(body instanceof Map<?,?> bm) || !(bm.get("fields") instanceof List<?> fl)) throw new Http(422, o("success", false, "error", "Validation failed", "fieldErrors", o("fields", "fields must be an array")));
    if (fl.isEmpty()) throw new Http(422, o("success", false, "error", "Validation failed", "fieldErrors", o("fields", "at least one field is required")));
    List<Object[]> ups = new ArrayList<>(); Set<String> seen = new HashSet<>();
    for (int i = 0; i < fl.size(); i++) {
      if (!(fl.get(i) instanceof Map<?,?> fm)) { fe.put("fields[" + i + "]", "must be an object"); continue; }
      Object fnO = fm.get("fieldName");
      if (!(fnO instanceof String fn) || fn.isEmpty()) { fe.put("fields[" + i + "].fieldName", "fieldName is required"); continue; }
      if (!seen.add(fn)) { fe.put(fn, "field specified more than once"); continue; }
      FieldDef def = r.org().fields.get(fn);
      if (def == null) { fe.put(fn, "unknown custom field"); continue; }
      if (!fm.containsKey("value")) { fe.put(fn, "value is required"); continue; }
      Object c = fm.get("confidence");
      if (fm.containsKey("confidence") && !(c instanceof java.math.BigDecimal cd && cd.doubleValue() >= 0 && cd.doubleValue() <= 1)) { fe.put(fn, "confidence must be a number between 0 and 1"); continue; }
      if (fm.containsKey("rationale") && !(fm.get("rationale") instanceof String)) { fe.put(fn, "rationale must be a string"); continue; }
      Object v = fm.get("value"); String err = null; Object norm = v;
      if (v != null) switch (def.type()) {
        case "number" -> { if (v instanceof java.math.BigDecimal d) norm = d.doubleValue(); else err = "expected a number"; }
        case "boolean" -> { if (!(v instanceof Boolean)) err = "expected a boolean"; }
        case "text" -> { if (!(v instanceof String s)) err = "expected a string"; else if (s.length() > 10000) err = "text longer than 10000 characters"; }
        case "select" -> { if (!(v instanceof String s) || !def.options().contains(s)) err = "expected one of " + def.options(); }
        case "multi_select" -> { if (!(v instanceof List<?> l) || !l.stream().allMatch(x -> x instanceof String && def.options().contains(x)) || new HashSet<>(l).size() != l.size()) err = "expected a list of distinct values from " + def.options(); }
      }
      if (err != null) { fe.put(fn, err); continue; }
      ups.add(new Object[]{fn, norm, c, fm.get("rationale")});
    }
    if (!fe.isEmpty()) throw new Http(422, o("success", false, "error", "Custom field validation failed", "fieldErrors", fe));
    List<Object> out = new ArrayList<>();
    synchronized (a) { for (Object[] u : ups) { String fn = (String) u[0];
      if (u[1] == null) { a.custom.remove(fn); a.prov.remove(fn); } else { a.custom.put(fn, u[1]); Map<String,Object> pv = o("source", "api", "keyName", r.key().name(), "updatedAt", ts(Instant.now())); if (u[2] != null) pv.put("confidence", u[2]); if (u[3] != null) pv.put("rationale", u[3]); a.prov.put(fn, pv); }
      out.add(o("fieldName", fn, "value", u[1])); } }
    return o("actionId", a.id, "updated", out);
  }

  // ---------------- analytics ----------------
  static List<Action> inWin(Req r, Instant[] w, boolean excl) { return r.org().actions.stream().filter(a -> in(a.createdAt, w, excl)).toList(); }
  static double avg(List<Action> l, java.util.function.Function<Action,Double> f) { double s = 0; int n = 0; for (Action a : l) { Double v = f.apply(a); if (v != null) { s += v; n++; } } return n == 0 ? 0.0 : r2(s / n); }
  static Map<String,Object> metrics(List<Action> l) {
    return o("totalActions", l.size(), "totalMessages", l.stream().mapToLong(a -> a.msgs.size()).sum(), "totalAgentMessages", l.stream().mapToLong(a -> a.count("AGENT")).sum(),
      "totalUserMessages", l.stream().mapToLong(a -> a.count("USER")).sum(), "averageCsat", avg(l, a -> a.csatScore == null ? null : Double.parseDouble(a.csatScore)),
      "averageResponseTime", avg(l, a -> a.frt == null ? null : a.frt.doubleValue()), "averageHandleTime", avg(l, a -> a.handle == null ? null : a.handle.doubleValue()),
      "averageEstimatedCsat", avg(l, a -> a.estCsat), "averageResolutionQuality", avg(l, a -> a.resQuality), "averageSentimentChange", avg(l, a -> a.sentChange), "averageRubricScore", avg(l, a -> a.rubric));
  }
  static Map<String,Object> workload(List<Action> l) {
    long c = l.stream().filter(a -> a.status.equals("CLOSED")).count(), x = l.stream().filter(a -> a.status.equals("CANCELLED")).count();
    return o("active", l.size() - c - x, "closed", c, "cancelled", x);
  }
  static String qid(String q) { return q == null ? null : "q-" + q.toLowerCase().replace(' ', '-'); }
  static Object agents(Req r, String id) {
    Instant[] w = window(r, 30, false);
    boolean excl = dev("D15");
    List<Action> l = inWin(r, w, excl);
    if (id == null) {
      List<Object> out = new ArrayList<>();
      for (Agent ag : r.org().agents) { List<Action> al = l.stream().filter(a -> a.assignee == ag).toList();
        Map<String,Object> m = metrics(al); m.put("totalActionsWithResponse", al.stream().filter(Action::responded).count());
        out.add(o("agentId", ag.id(), "metrics", m, "workload", workload(al))); }
      return o("success", true, "data", out);
    }
    Agent ag = r.org().agents.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow(() -> new Http(404, "Agent not found"));
    List<Action> al = l.stream().filter(a -> a.assignee == ag).toList();
    TreeMap<String,List<Action>> byDay = new TreeMap<>(); for (Action a : al) byDay.computeIfAbsent(a.createdAt.toString().substring(0, 10), k -> new ArrayList<>()).add(a);
    List<Object> rows = new ArrayList<>(); byDay.forEach((d, dl) -> { Map<String,Object> m = o("date", d); m.putAll(metrics(dl)); rows.add(m); });
    Map<String,List<Action>> byQ = new LinkedHashMap<>(); for (Action a : al) byQ.computeIfAbsent(a.queue == null ? "\0" : a.queue, k -> new ArrayList<>()).add(a);
    List<Object> qs = new ArrayList<>(); byQ.forEach((k, ql) -> { String qn = k.equals("\0") ? null : k; qs.add(o("queueId", qid(qn), "queueName", qn, "totalActions", ql.size())); });
    List<Action> all = r.org().actions.stream().filter(a -> a.assignee == ag).toList();
    return o("success", true, "data", o("metrics", rows, "aggregatedMetrics", metrics(al), "currentWorkload", workload(all), "queues", qs));
  }
  static Object queues(Req r) {
    List<Action> l = inWin(r, window(r, 30, false), false);
    Map<String,List<Action>> byQ = new TreeMap<>(); for (Action a : l) byQ.computeIfAbsent(a.queue == null ? "\uffff" : a.queue, k -> new ArrayList<>()).add(a);
    List<Object> out = new ArrayList<>();
    byQ.forEach((k, ql) -> { String qn = k.equals("\uffff") ? null : k; Map<String,Object> m = metrics(ql); m.put("averageSentimentScore", avg(ql, a -> a.sentimentScore)); out.add(o("queueId", qid(qn), "queueName", qn, "metrics", m, "workload", workload(ql))); });
    return o("success", true, "data", out);
  }
  static Object tags(Req r) {
    Instant[] w = window(r, 30, false);
    boolean ro = boolParam(r, "respondedOnly", false);
    int limit = intParam(r, "limit", 25, 1, 1000), offset = intParam(r, "offset", 0, 0, 1000000);
    String search = r.q().getOrDefault("search", "").toLowerCase(Locale.ROOT).trim();
    List<Action> l = inWin(r, w, false).stream().filter(a -> !ro || a.responded()).toList();
    Map<Tag,List<Action>> by = new LinkedHashMap<>();
    for (Action a : l) for (Tag t : a.tags) if (search.isEmpty() || t.value().toLowerCase().contains(search) || t.group().toLowerCase().contains(search)) by.computeIfAbsent(t, k -> new ArrayList<>()).add(a);
    List<Map.Entry<Tag,List<Action>>> es = new ArrayList<>(by.entrySet());
    es.sort(Comparator.comparing((Map.Entry<Tag,List<Action>> e) -> -e.getValue().size()).thenComparing(e -> e.getKey().value()));
    long sum = es.stream().mapToLong(e -> e.getValue().size()).sum();
    List<Object> br = new ArrayList<>(), vol = new ArrayList<>();
    for (var e : es.subList(Math.min(offset, es.size()), Math.min(offset + limit, es.size()))) {
      Tag t = e.getKey(); List<Action> tl = e.getValue(); long resp = tl.stream().filter(Action::responded).count();
      br.add(o("tagId", t.id(), "tagName", t.value(), "groupName", t.group(), "count", tl.size(), "percentage", sum == 0 ? 0.0 : r2(100.0 * tl.size() / sum)));
      vol.add(o("tagId", t.id(), "tagName", t.value(), "total", tl.size(), "responded", resp, "notResponded", tl.size() - resp, "avgSentiment", nz(tl, a -> a.sentimentScore), "avgActionability", nz(tl, a -> a.actionability), "avgRelevance", nz(tl, a -> a.relevance)));
    }
    Set<Action> tagged = new HashSet<>(); by.values().forEach(tagged::addAll);
    Map<String,Object> sm = o("totalTags", es.size(), "totalTagGroups", es.stream().map(e -> e.getKey().group()).distinct().count(), "totalTaggedRecords", tagged.size(), "totalActions", l.size());
    return o("success", true, "data", o("summary", sm, "tagBreakdown", br, "volumeByTag", vol, "pagination", o("total", es.size(), "limit", limit, "offset", offset, "hasMore", offset + br.size() < es.size())));
  }
  static Double nz(List<Action> l, java.util.function.Function<Action,Double> f) { double s = 0; int n = 0; for (Action a : l) { Double v = f.apply(a); if (v != null) { s += v; n++; } } return n == 0 ? null : r2(s / n); }
  static Object tagVolume(Req r) {
    Instant[] w = window(r, 30, false);
    boolean ro = boolParam(r, "respondedOnly", false);
    int top = intParam(r, "topTagsLimit", 5, 1, 100);
    List<Action> l = inWin(r, w, false).stream().filter(a -> !ro || a.responded()).toList();
    List<Tag> sel;
    String ids = r.q().get("tagIds");
    if (ids != null && !ids.isBlank()) { Set<String> s = Arrays.stream(ids.split(",")).map(String::trim).collect(Collectors.toSet()); sel = r.org().tagCat.stream().filter(t -> s.contains(t.id())).toList(); }
    else { Map<Tag,Long> c = new HashMap<>(); for (Action a : l) for (Tag t : a.tags) c.merge(t, 1L, Long::sum);
      sel = c.entrySet().stream().sorted(Comparator.comparing((Map.Entry<Tag,Long> e) -> -e.getValue()).thenComparing(e -> e.getKey().value())).limit(top).map(Map.Entry::getKey).toList(); }
    TreeMap<String,Map<String,Object>> rows = new TreeMap<>();
    for (Action a : l) for (Tag t : a.tags) if (sel.contains(t)) { Map<String,Object> row = rows.computeIfAbsent(a.createdAt.toString().substring(0, 10), d -> { Map<String,Object> m = o("date", d); for (Tag x : sel) m.put(x.value(), 0L); return m; }); row.merge(t.value(), 1L, (x, y) -> (Long) x + (Long) y); }
    return o("success", true, "data", o("data", new ArrayList<>(rows.values()), "tags", sel.stream().map(Tag::value).toList()));
  }
  static Object sentiment(Req r) {
    Instant[] w = window(r, 30, false);
    List<Action> l = inWin(r, w, false);
    TreeMap<String,long[]> days = new TreeMap<>();
    LocalDate d0 = w[0].atZone(ZoneOffset.UTC).toLocalDate(), d1 = w[1].atZone(ZoneOffset.UTC).toLocalDate();
    if (Duration.between(w[0], w[1]).toDays() <= 400) for (LocalDate d = d0; !d.isAfter(d1); d = d.plusDays(1)) days.put(d.toString(), new long[4]);
    for (Action a : l) { if (a.sentiment == null) continue; long[] c = days.computeIfAbsent(a.createdAt.toString().substring(0, 10), k -> new long[4]); c[Arrays.asList(SENTS).indexOf(a.sentiment)]++; }
    List<Object> out = new ArrayList<>();
    days.forEach((d, c) -> { Map<String,Object> m = o("day", d); for (int i = 0; i < 4; i++) if (!(dev("D11") && c[i] == 0)) m.put(SENTS[i], c[i]); out.add(m); });
    return o("success", true, "data", out);
  }
  static Object sentimentByTag(Req r) {
    List<Action> l = inWin(r, window(r, 30, false), false);
    Map<String,long[]> by = new TreeMap<>();
    for (Action a : l) for (Tag t : a.tags) { long[] c = by.computeIfAbsent(t.value(), k -> new long[4]); if (a.sentiment != null) c[Arrays.asList(SENTS).indexOf(a.sentiment)]++; }
    List<Object> out = new ArrayList<>();
    by.forEach((t, c) -> out.add(o("tagName", t, "veryNegative", c[0], "negative", c[1], "neutral", c[2], "positive", c[3], "totalMentions", c[0] + c[1] + c[2] + c[3])));
    return o("success", true, "data", out);
  }
  static double pct(List<Long> v, double p) { if (v.isEmpty()) return 0; double idx = p * (v.size() - 1); int lo = (int) Math.floor(idx), hi = (int) Math.ceil(idx); return r2(v.get(lo) + (v.get(hi) - v.get(lo)) * (idx - lo)); }
  static Object engagement(Req r) {
    Instant[] w = window(r, 30, false);
    String pf = r.q().get("platforms");
    Set<String> ps = pf == null || pf.isBlank() ? null : Arrays.stream(pf.split(",")).map(s -> s.trim().toUpperCase()).collect(Collectors.toSet());
    List<Action> l = inWin(r, w, false).stream().filter(a -> ps == null || ps.contains(a.platform)).toList();
    TreeMap<String,List<Action>> byP = new TreeMap<>(); for (Action a : l) byP.computeIfAbsent(a.platform, k -> new ArrayList<>()).add(a);
    List<Object> perc = new ArrayList<>(), growth = new ArrayList<>();
    byP.forEach((p, pl) -> { Map<String,Long> per = new HashMap<>(); for (Action a : pl) per.merge(a.userId, a.count("USER"), Long::sum);
      List<Long> v = per.values().stream().sorted().toList();
      perc.add(o("platform", p, "p25MessagesPerUser", pct(v, .25), "medianMessagesPerUser", pct(v, .5), "p75MessagesPerUser", pct(v, .75))); });
    LocalDate wk0 = w[0].atZone(ZoneOffset.UTC).toLocalDate().with(DayOfWeek.MONDAY), wk1 = w[1].atZone(ZoneOffset.UTC).toLocalDate();
    if (Duration.between(w[0], w[1]).toDays() <= 800) for (LocalDate wk = wk0; !wk.isAfter(wk1); wk = wk.plusWeeks(1)) for (String p : byP.keySet()) {
      Instant s = wk.atStartOfDay().toInstant(ZoneOffset.UTC), e = s.plus(Duration.ofDays(7)), ps0 = s.minus(Duration.ofDays(7));
      long cur = r.org().actions.stream().filter(a -> a.platform.equals(p) && !a.createdAt.isBefore(s) && a.createdAt.isBefore(e)).map(a -> a.userId).distinct().count();
      long prev = r.org().actions.stream().filter(a -> a.platform.equals(p) && !a.createdAt.isBefore(ps0) && a.createdAt.isBefore(s)).map(a -> a.userId).distinct().count();
      growth.add(o("week", ts(s), "platform", p, "currentWeekUsers", cur, "previousWeekUsers", prev, "growthPercentage", prev == 0 ? (cur > 0 ? 100.0 : 0.0) : r2(100.0 * (cur - prev) / prev)));
    }
    long tot = l.size(), resp = l.stream().filter(Action::responded).count(), closed = l.stream().filter(a -> a.status.equals("CLOSED")).count();
    List<Object> funnel = List.of(o("stage", "conversations", "count", tot, "percentage", tot == 0 ? 0.0 : 100.0), o("stage", "responded", "count", resp, "percentage", tot == 0 ? 0.0 : r2(100.0 * resp / tot)), o("stage", "resolved", "count", closed, "percentage", tot == 0 ? 0.0 : r2(100.0 * closed / tot)));
    return o("success", true, "data", o("engagementPercentiles", perc, "growthTrends", growth, "conversionFunnel", funnel));
  }
  static Object search(Req r) {
    int page = r.q().containsKey("page") && dev("D03") && r.q().get("page").matches("\\d{1,9}") ? Math.max(1, Math.min(10000, Integer.parseInt(r.q().get("page")))) : intParam(r, "page", 1, 1, 10000);
    int ps = intParam(r, "pageSize", 50, 1, 100);
    java.util.function.Predicate<Action> p = dsl(r.q().get("filter"), "filter");
    List<Action> all = r.org().actions.stream().filter(p).sorted(Comparator.comparing((Action a) -> a.createdAt).reversed().thenComparing(a -> a.id)).toList();
    final int CAP = 5000;
    List<Object> data = all.stream().skip((long) (page - 1) * ps).limit(ps).map(a -> { Map<String,Object> m = summary(a, false);
      if (dev("D04") && a.userId.matches("\\d{17,}")) m.put("userId", new java.math.BigDecimal((double) Long.parseLong(a.userId)).toPlainString());
      m.put("threadId", a.threadId); m.put("easyId", a.easyId); m.put("contributors", a.contributors); return (Object) m; }).toList();
    int total = Math.min(all.size(), CAP);
    return o("success", true, "data", data, "totalRecords", total, "totalRecordsCapped", all.size() > CAP, "currentPage", page, "pageSize", ps, "totalPages", (total + ps - 1) / ps);
  }

  // ---------------- moderation ----------------
  static void modGate(Req r) {
    need(r, "write");
    if (!r.org().adPolicy) throw new Http(403, o("success", false, "error", "Moderation is not enabled for this organization", "message", "Organization is not configured for ad_policy moderation", "supported", List.of("ad_policy")));
  }
  static final String[][] MSTR = {{"externalId", "256", "1"}, {"sourceSystem", "128", "1"}, {"sourcePlatform", "128", "1"}, {"sourceAdId", "256", "1"}, {"advertiserId", "256", "0"}, {"advertiserName", "500", "1"},
    {"campaignId", "256", "0"}, {"market", "128", "1"}, {"placement", "128", "1"}, {"language", "64", "0"}, {"title", "500", "1"}, {"headline", "500", "0"}, {"brandName", "500", "0"}};
  static boolean httpUrl(Object u) { if (!(u instanceof String s)) return false; try { URI x = new URI(s); return x.isAbsolute() && ("http".equalsIgnoreCase(x.getScheme()) || "https".equalsIgnoreCase(x.getScheme())) && x.getHost() != null; } catch (Exception e) { return false; } }
  static boolean isInt(Object v, long lo, long hi) { if (!(v instanceof java.math.BigDecimal d)) return false; try { long l = d.longValueExact(); return l >= lo && l <= hi; } catch (ArithmeticException e) { return false; } }
  static void strArr(Map<?,?> m, String k, String path, int max, boolean req, List<String> miss, List<String> inv) {
    if (!m.containsKey(k)) { if (req) miss.add(path); return; }
    if (!(m.get(k) instanceof List<?> l) || l.isEmpty() || l.size() > max || !l.stream().allMatch(x -> x instanceof String)) inv.add(path);
  }
  /** returns [missing, invalid, normalized content] */
  static Object[] validateCase(Object in) {
    List<String> miss = new ArrayList<>(), inv = new ArrayList<>();
    if (!(in instanceof Map<?,?> m)) return new Object[]{miss, List.of("(root)"), null};
    for (String[] f : MSTR) { if (!m.containsKey(f[0])) { if (f[2].equals("1")) miss.add(f[0]); continue; }
      if (!(m.get(f[0]) instanceof String s) || s.isEmpty() || s.length() > Integer.parseInt(f[1])) inv.add(f[0]); }
    if (m.containsKey("callToAction") && !List.of("APPLY_NOW", "BOOK_NOW", "GET_NOW", "INSTALL_NOW", "MORE", "SHOP_NOW", "SIGN_UP", "VIEW", "WATCH").contains(m.get("callToAction"))) inv.add("callToAction");
    if (m.containsKey("providerMetadata") && !(m.get("providerMetadata") instanceof Map)) inv.add("providerMetadata");
    if (!m.containsKey("landingPageUrl")) miss.add("landingPageUrl"); else if (m.get("landingPageUrl") != null && !(m.get("landingPageUrl") instanceof String)) inv.add("landingPageUrl");
    if (m.containsKey("publicProfile")) { if (!(m.get("publicProfile") instanceof Map<?,?> pp)) inv.add("publicProfile"); else {
      if (pp.containsKey("displayName") && !(pp.get("displayName") instanceof String s && !s.isEmpty() && s.length() <= 500)) inv.add("publicProfile.displayName");
      if (pp.containsKey("logoUrl") && !httpUrl(pp.get("logoUrl"))) inv.add("publicProfile.logoUrl");
      if (pp.containsKey("verified") && !(pp.get("verified") instanceof Boolean)) inv.add("publicProfile.verified"); } }
    if (!m.containsKey("media")) miss.add("media"); else if (!(m.get("media") instanceof List<?> ml) || ml.isEmpty() || ml.size() > 20) inv.add("media"); else
      for (int i = 0; i < ml.size(); i++) { String p = "media[" + i + "]"; if (!(ml.get(i) instanceof Map<?,?> mi)) { inv.add(p); continue; }
        if (!mi.containsKey("url")) miss.add(p + ".url"); else if (!httpUrl(mi.get("url"))) inv.add(p + ".url");
        if (!mi.containsKey("type")) miss.add(p + ".type"); else if (!List.of("image", "video").contains(mi.get("type"))) inv.add(p + ".type");
        if (!mi.containsKey("position")) miss.add(p + ".position"); else if (!isInt(mi.get("position"), 1, 20)) inv.add(p + ".position"); }
    if (!m.containsKey("attachment")) miss.add("attachment"); else if (!(m.get("attachment") instanceof Map<?,?> at)) inv.add("attachment"); else {
      if (!at.containsKey("type")) miss.add("attachment.type"); else if (!List.of("web_view", "deep_link", "app_install", "lens", "long_form_video").contains(at.get("type"))) inv.add("attachment.type");
      if (!at.containsKey("destinationUrl")) miss.add("attachment.destinationUrl"); else if (at.get("destinationUrl") != null && !(at.get("destinationUrl") instanceof String)) inv.add("attachment.destinationUrl"); }
    if (!m.containsKey("targeting")) miss.add("targeting"); else if (!(m.get("targeting") instanceof Map<?,?> tg)) inv.add("targeting"); else {
      if (!tg.containsKey("ageMin")) miss.add("targeting.ageMin"); else if (tg.get("ageMin") != null && !isInt(tg.get("ageMin"), 0, 200)) inv.add("targeting.ageMin");
      if (tg.containsKey("ageMax") && tg.get("ageMax") != null && !isInt(tg.get("ageMax"), 0, 200)) inv.add("targeting.ageMax");
      strArr(tg, "geos", "targeting.geos", 250, true, miss, inv); strArr(tg, "languages", "targeting.languages", 100, false, miss, inv); }
    if (!m.containsKey("copy")) miss.add("copy"); else if (!(m.get("copy") instanceof Map<?,?> cp)) inv.add("copy"); else
      for (String k : List.of("body", "caption", "linkDescription", "sourceTitle")) if (cp.containsKey(k) && !(cp.get(k) instanceof String s && s.length() <= 20000)) inv.add("copy." + k);
    for (String k : List.of("discoverTile", "partnershipAd")) if (m.containsKey(k) && !(m.get(k) instanceof Boolean)) inv.add(k);
    for (String k : List.of("format", "arLens")) if (m.containsKey(k) && m.get(k) != null && !(m.get(k) instanceof String)) inv.add(k);
    if (m.containsKey("submittedAt")) { try { OffsetDateTime.parse((String) m.get("submittedAt")); } catch (Exception e) { inv.add("submittedAt"); } }
    TreeMap<String,Object> norm = new TreeMap<>();
    for (var e : m.entrySet()) norm.put(String.valueOf(e.getKey()), e.getValue());
    norm.putIfAbsent("language", "en");
    if (dev("D07")) norm.remove("copy");
    return new Object[]{miss, inv, norm};
  }
  static String canon(Object o) {
    if (o instanceof Map<?,?> m) { TreeMap<String,Object> t = new TreeMap<>(); m.forEach((k, v) -> t.put(String.valueOf(k), v)); StringBuilder b = new StringBuilder("{"); t.forEach((k, v) -> b.append(json(k)).append(':').append(canon(v)).append(',')); return b.append('}').toString(); }
    if (o instanceof List<?> l) return "[" + l.stream().map(Server::canon).collect(Collectors.joining(",")) + "]";
    if (o instanceof java.math.BigDecimal d) return d.stripTrailingZeros().toPlainString();
    return json(o);
  }
  static String sha(String s) { try { byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)); StringBuilder b = new StringBuilder(); for (int i = 0; i < 16; i++) b.append(String.format("%02x", h[i])); return b.toString(); } catch (Exception e) { throw new RuntimeException(e); } }
  /** returns result map; status key in: accepted, duplicate, conflict, invalid */
  static Map<String,Object> submit(Org org, Object in) {
    Object[] v = validateCase(in);
    @SuppressWarnings("unchecked") List<String> miss = (List<String>) v[0], inv = (List<String>) v[1];
    Object ext = in instanceof Map<?,?> m ? m.get("externalId") : null;
    if (!miss.isEmpty() || !inv.isEmpty()) {
      List<String> errs = new ArrayList<>(); miss.forEach(f -> errs.add(f + " is required")); inv.forEach(f -> errs.add(f + " is invalid"));
      return o("_kind", "invalid", "externalId", ext instanceof String ? ext : null, "caseId", null, "status", "rejected", "errors", errs, "message", "Moderation input failed validation",
        "code", miss.isEmpty() ? "MODERATION_INPUT_INVALID" : "MODERATION_INPUT_INCOMPLETE", "missingFields", miss, "invalidFields", inv);
    }
    String content = canon(v[2]); String e = (String) ext;
    synchronized (org) {
      Case c = org.casesByExt.get(e);
      if (c != null) {
        if (!c.content.equals(content)) return o("_kind", "conflict", "externalId", e, "caseId", c.id, "status", "rejected", "errors", List.of("externalId already exists with different content"), "message", "Immutable externalId conflict");
        return o("_kind", "duplicate", "caseId", c.id, "externalId", e, "status", "duplicate", "analysisStatus", "pending", "evaluationId", c.evalId, "idempotency", o("key", c.idemKey, "replayed", true));
      }
      c = new Case(); c.id = "mc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20); c.ext = e; c.evalId = "ev_" + UUID.randomUUID(); c.content = content;
      c.idemKey = "idem_" + sha(org.id + "\n" + e); c.t0 = System.nanoTime(); @SuppressWarnings("unchecked") Map<String,Object> sm = (Map<String,Object>) in; c.sub = sm;
      org.cases.put(c.id, c); org.casesByExt.put(e, c);
      return o("_kind", "accepted", "caseId", c.id, "externalId", e, "status", "accepted", "analysisStatus", "pending", "evaluationId", c.evalId, "idempotency", o("key", c.idemKey, "replayed", false));
    }
  }
  static Object modSingle(Req r) {
    Object in; try { in = JP.parse(r.body()); } catch (IllegalArgumentException e) { throw new Http(400, o("success", false, "error", "Request body must be valid JSON")); }
    if (!(in instanceof Map)) throw new Http(400, o("success", false, "error", "Request body must be a JSON object"));
    Map<String,Object> res = submit(r.org(), in);
    String k = (String) res.remove("_kind");
    if (k.equals("invalid")) throw new Http(422, o("success", false, "error", "Validation failed", "message", res.get("message"), "code", res.get("code"), "missingFields", res.get("missingFields"), "invalidFields", res.get("invalidFields")));
    if (k.equals("conflict")) throw new Http(409, o("success", false, "error", "externalId already exists with different content", "message", "Immutable externalId conflict"));
    return new Object[]{202, res};
  }
  static Object modBatch(Req r) {
    Object in; try { in = JP.parse(r.body()); } catch (IllegalArgumentException e) { throw new Http(400, "Request body must be valid JSON"); }
    if (!(in instanceof Map<?,?> m) || !(m.get("cases") instanceof List<?> cs)) throw new Http(400, o("success", false, "error", "'cases' must be an array"));
    if (cs.isEmpty() || cs.size() > 100) throw new Http(400, o("success", false, "error", "'cases' must contain 1 to 100 items"));
    List<Map<String,Object>> out = new ArrayList<>();
    for (Object c : cs) { Map<String,Object> res = submit(r.org(), c); res.remove("_kind"); out.add(res); }
    if (dev("D08")) out.sort(Comparator.comparing(x -> "rejected".equals(x.get("status")) ? 1 : 0));
    return new Object[]{202, o("results", out)};
  }
  static Object modGet(Req r, String id) {
    Case c = r.org().cases.get(id);
    if (c == null) throw new Http(404, "Moderation case not found");
    double el = (System.nanoTime() - c.t0) / 1e9;
    boolean fail = c.sub.get("providerMetadata") instanceof Map<?,?> pm && Boolean.TRUE.equals(pm.get("simulateFailure"));
    String st = el < 1.0 ? "pending" : el < 2.5 ? "running" : fail ? "failed" : "completed";
    Map<String,Object> m = o("caseId", c.id, "externalId", c.ext, "analysisStatus", st, "evaluationId", c.evalId);
    if (st.equals("completed") || (dev("D09") && st.equals("running"))) m.put("decision", decision(c));
    if (st.equals("failed")) m.put("failureCode", "EVALUATION_ERROR");
    return m;
  }
  static Map<String,Object> decision(Case c) {
    Map<String,Object> s = c.sub; String text = canon(s.get("copy")) + " " + s.get("title") + " " + s.getOrDefault("headline", "");
    List<Object> hits = new ArrayList<>(); String disp = "approve", reason = "No policy concerns detected";
    int idx = text.toLowerCase().indexOf("guaranteed");
    if (idx >= 0) { disp = "reject"; reason = "Misleading guaranteed-outcome claim";
      hits.add(o("ruleId", "rule-ads-014", "ruleSlug", "misleading-claims", "polarity", "NEGATIVE", "confidence", "high", "reasoning", "Copy promises a guaranteed outcome",
        "evidence", List.of(o("modality", "text", "claim", "Guaranteed result claim", "locator", o("textSpan", o("field", "copy", "start", 0, "end", 10)))))); }
    else if (s.get("targeting") instanceof Map<?,?> t && t.get("ageMin") instanceof java.math.BigDecimal a && a.intValue() >= 18) { disp = "age_gate"; reason = "Adult targeting requires age gating"; }
    else if (s.get("landingPageUrl") == null) { disp = "escalate"; reason = "No landing page to assess"; }
    return o("disposition", disp, "confidence", disp.equals("approve") ? "medium" : "high", "title", null, "reason", reason, "hits", hits,
      "advertiserAssessment", o("polarity", "POSITIVE", "reasoning", "Advertiser profile appears legitimate"),
      "landingAssessment", o("polarity", s.get("landingPageUrl") == null ? "AMBIGUOUS" : "POSITIVE", "reasoning", s.get("landingPageUrl") == null ? "Landing page not provided" : "Landing page consistent with ad"),
      "decisionSource", "model", "failureCode", null, "failureMessage", null);
  }

  // ---------------- ingestion ----------------
  static final List<String> ING_PLATFORMS = List.of("DISCORD", "SLACK", "GITHUB", "ZENDESK", "TELEGRAM", "FACEBOOK_GROUP", "TWITTER_COMMUNITY", "SALESFORCE", "FACEBOOK", "TWITTER", "THREADS", "TIKTOK", "INSTAGRAM", "LINKEDIN", "WHATSAPP", "YOUTUBE", "GAINSIGHT", "APPSTORE", "GOOGLE_PLAY", "HIGHER_LOGIC", "DISCOURSE", "CUSTOM_FORM", "MODERATION_API", "CHROME_WEB_STORE", "CANNY");
  static boolean nes(Object v) { return v instanceof String s && !s.isEmpty(); }
  static Object ingest(Req r) {
    Object in; try { in = JP.parse(r.body()); } catch (IllegalArgumentException e) { throw new Http(422, "Request body must be valid JSON"); }
    List<String> errs = new ArrayList<>();
    if (!(in instanceof Map<?,?> m)) throw new Http(422, "Request body must be a JSON object");
    if (dev("X02") ? !ING_PLATFORMS.contains(m.get("platform")) : (m.get("platform") == null || !ING_PLATFORMS.contains(m.get("platform")))) errs.add("platform must be one of the supported platforms");
    if (!nes(m.get("serverId"))) errs.add("serverId is required");
    if (!nes(m.get("serverName"))) errs.add("serverName is required");
    for (String k : List.of("channelId", "channelName")) if (m.containsKey(k) && !(m.get(k) instanceof String)) errs.add(k + " must be a string");
    if (m.containsKey("processingLevel") && !List.of("INSIGHTS", "STATS_ONLY").contains(m.get("processingLevel"))) errs.add("processingLevel must be INSIGHTS or STATS_ONLY");
    if (m.containsKey("source")) { if (!(m.get("source") instanceof Map<?,?> so) || !nes(so.get("system")) || (so.containsKey("sourceId") && !(so.get("sourceId") instanceof String))) errs.add("source.system is required"); }
    List<?> recs = m.get("records") instanceof List<?> l ? l : null;
    if (recs == null || recs.isEmpty() || recs.size() > 500) errs.add("records must contain 1 to 500 items");
    else for (int i = 0; i < recs.size(); i++) { String p = "records[" + i + "]";
      if (!(recs.get(i) instanceof Map<?,?> rc)) { errs.add(p + " must be an object"); continue; }
      for (String k : List.of("externalId", "authorId", "authorName", "createdAt", "recordType")) if (!nes(rc.get(k))) errs.add(p + "." + k + " is required");
      if (!(rc.get("body") instanceof String)) errs.add(p + ".body is required");
      for (String k : List.of("threadExternalId", "parentExternalId", "title")) if (rc.containsKey(k) && !(rc.get(k) instanceof String)) errs.add(p + "." + k + " must be a string");
      if (rc.containsKey("score") && !(rc.get("score") instanceof java.math.BigDecimal d && d.doubleValue() >= 0 && d.doubleValue() <= 5)) errs.add(p + ".score must be between 0 and 5");
      if (rc.containsKey("url") && !httpUrl(rc.get("url"))) errs.add(p + ".url must be an absolute HTTP or HTTPS URL");
      if (rc.containsKey("customFields") && !(rc.get("customFields") instanceof Map)) errs.add(p + ".customFields must be an object"); }
    if (!errs.isEmpty()) throw new Http(422, o("success", false, "error", "Validation failed: " + errs.get(0), "details", errs));
    for (Object o : recs) { Map<?,?> rc = (Map<?,?>) o; r.org().ingested.put(m.get("platform") + "|" + m.get("serverId") + "|" + rc.get("externalId"), rc); }
    return new Object[]{202, o("status", "accepted", "accepted", recs.size())};
  }

  // ---------------- docs ----------------
  static Map<String,Object> sch(String spec) {
    Map<String,Object> props = new LinkedHashMap<>(); List<String> req = new ArrayList<>();
    for (String f : spec.split(",")) { String[] p = f.split(":"); String t = p[1]; boolean nul = t.endsWith("?"); if (nul) t = t.substring(0, t.length() - 1);
      Map<String,Object> s = switch (t) { case "s" -> o("type", "string"); case "n" -> o("type", "number"); case "i" -> o("type", "integer"); case "b" -> o("type", "boolean"); case "o" -> o("type", "object");
        case "a" -> o("type", "array", "items", o("type", "object")); case "tags" -> o("type", "array", "items", o("$ref", "#/components/schemas/Tag")); default -> o("$ref", "#/components/schemas/" + t); };
      if (nul) s.put("nullable", true); props.put(p[0], s); req.add(p[0]); }
    return o("type", "object", "required", req, "properties", props);
  }
  static final String SUM = "actionId:s,actionTitle:s,actionSummary:s,status:s,platform:s,recordType:s?,isPublicPost:b,serviceURL:s,sourceURL:s?,queue:s?,initialQueue:s?,sentiment:s?,sentimentScore:n?,moderation:s?,assigneeName:s?,assigneeEmail:s?,assigneeUserId:s?,assigneeRole:s?,userName:s,userUsername:s,userId:s,userEmail:s?,userFollowerCount:n?,createdAt:s,updatedAt:s?,initialMessageTime:s?,initialResponseTime:s?,closeTime:s?,claimTime:s?,firstResponseTime:s?,handleTime:s?,serverName:s,channelName:s,csatScore:s?,csatFeedback:s?,estimatedCSAT:n?,totalMessages:n?,totalUserMessages:n?,totalAgentMessages:n?,tags:tags,closingTags:tags,customFields:o,rootMessageText:s?,conversationJson:s?";
  static Map<String,Object> OPENAPI;
  static Map<String,Object> openapi() {
    if (OPENAPI != null) return OPENAPI;
    Map<String,Object> paths = new LinkedHashMap<>();
    Object[][] ops = {
      {"/v0/action/list", "get", "listActions", "List actions", "ActionListResponse", "200", "400,401,500", "from,to,pageSize:i,filter,filterJson,fullFilter,includeFullConversation:b,sortBy"},
      {"/v0/action/{id}", "get", "getAction", "Get action detail", "ActionDetail", "200", "401,404,500", "id@"},
      {"/v0/actions/{actionId}/custom-fields", "get", "getActionCustomFields", "Read custom field values", "CustomFieldsResponse", "200", "401,403,404,500", "actionId@"},
      {"/v0/actions/{actionId}/custom-fields", "patch", "updateActionCustomFields", "Update custom field values", "CustomFieldsUpdateResponse", "200", "401,403,404,422,500", "actionId@"},
      {"/v0/agents", "get", "listAgents", "Agent metrics", "AgentListResponse", "200", "401,403,500", "from,to"},
      {"/v0/agents/{id}", "get", "getAgent", "Agent detail", "AgentDetailResponse", "200", "401,403,404,500", "id@,from,to"},
      {"/v0/queues", "get", "listQueues", "Queue metrics", "QueueListResponse", "200", "401,403,500", "from,to"},
      {"/v0/analytics/tags", "get", "getTagAnalytics", "Tag analytics", "TagAnalyticsResponse", "200", "401,403,500", "from,to,respondedOnly:b,limit:i,offset:i,search"},
      {"/v0/analytics/tags/volume", "get", "getTagVolume", "Tag volume over time", "TagVolumeResponse", "200", "401,403,500", "from,to,respondedOnly:b,topTagsLimit:i,tagIds"},
      {"/v0/analytics/sentiment", "get", "getSentimentByDay", "Sentiment by day", "SuccessArray", "200", "401,403,500", "from,to"},
      {"/v0/analytics/sentiment/by-tag", "get", "getSentimentByTag", "Sentiment by tag", "SuccessArray", "200", "401,403,500", "from,to"},
      {"/v0/analytics/engagement", "get", "getEngagement", "Engagement analytics", "EngagementResponse", "200", "401,403,500", "from,to,platforms"},
      {"/v0/conversations/search", "get", "searchConversations", "Search conversations", "SearchResponse", "200", "400,401,403,500", "filter,page:i,pageSize:i"},
      {"/v0/moderation/cases", "post", "submitModerationCase", "Submit a moderation case", "ModerationAck", "202", "400,401,403,409,422,500", ""},
      {"/v0/moderation/cases/batch", "post", "submitModerationBatch", "Submit moderation cases in batch", "ModerationBatchResponse", "202", "400,401,403", ""},
      {"/v0/moderation/cases/{caseId}", "get", "getModerationCase", "Read moderation case status", "ModerationStatus", "200", "401,403,404", "caseId@"},
      {"/v0/ingest/records", "post", "ingestRecords", "Ingest normalized records", "IngestResponse", "202", "401,403,422,500", ""}};
    for (Object[] op : ops) {
      if (dev("D13") && op[0].equals("/v0/moderation/cases/batch")) continue;
      List<Object> params = new ArrayList<>();
      if (!((String) op[7]).isEmpty()) for (String p : ((String) op[7]).split(",")) { boolean path = p.endsWith("@"); String nm = p.replace("@", ""); String ty = "string";
        if (nm.contains(":")) { ty = nm.endsWith(":i") ? "integer" : "boolean"; nm = nm.substring(0, nm.indexOf(':')); }
        params.add(o("name", nm, "in", path ? "path" : "query", "required", path, "schema", o("type", ty))); }
      Map<String,Object> resp = new LinkedHashMap<>();
      resp.put((String) op[5], o("description", "Success", "content", o("application/json", o("schema", o("$ref", "#/components/schemas/" + op[4])))));
      for (String c : ((String) op[6]).split(",")) resp.put(c, o("description", "Error", "content", o("application/json", o("schema", o("$ref", "#/components/schemas/Error")))));
      Map<String,Object> od = o("operationId", op[2], "summary", op[3], "parameters", params, "responses", resp);
      if (op[1].equals("post") || op[1].equals("patch")) od.put("requestBody", o("required", true, "content", o("application/json", o("schema", o("type", "object")))));
      @SuppressWarnings("unchecked") Map<String,Object> pi = (Map<String,Object>) paths.computeIfAbsent((String) op[0], k -> new LinkedHashMap<>());
      pi.put((String) op[1], od);
    }
    Map<String,Object> schemas = new LinkedHashMap<>();
    schemas.put("Error", sch("success:b,error:s"));
    schemas.put("Tag", sch("value:s,group:s"));
    schemas.put("ActionSummary", sch(SUM));
    schemas.put("SearchItem", sch(SUM + ",threadId:s,easyId:s?,contributors:s?"));
    schemas.put("ActionListResponse", o("type", "object", "required", List.of("data", "totalRecords", "currentPage", "pageSize", "totalPages"), "properties", o("data", o("type", "array", "items", o("$ref", "#/components/schemas/ActionSummary")), "totalRecords", o("type", "number"), "currentPage", o("type", "number"), "pageSize", o("type", "number"), "totalPages", o("type", "number"))));
    schemas.put("SearchResponse", o("type", "object", "required", List.of("success", "data", "totalRecords", "totalRecordsCapped", "currentPage", "pageSize", "totalPages"), "properties", o("success", o("type", "boolean"), "data", o("type", "array", "items", o("$ref", "#/components/schemas/SearchItem")), "totalRecords", o("type", "number"), "totalRecordsCapped", o("type", "boolean"), "currentPage", o("type", "number"), "pageSize", o("type", "number"), "totalPages", o("type", "number"))));
    schemas.put("ActionDetail", sch("actionId:s,actionTitle:s,actionSummary:s,platform:s,recordType:s?,isPublicPost:b,user:o,sentiment:s?,sentimentScore:n?,queue:s?,initialQueue:s?,status:s,createdAt:s,serviceURL:s,sourceURL:s?,updatedAt:s?,initialMessageTime:s?,initialResponseTime:s?,closeTime:s?,firstResponseTime:s?,handleTime:s?,claimTime:s?,assignee:o,serverName:s,channelName:s,tags:tags,closingTags:tags,moderation:s?,comments:a,messages:a,rootMessageText:s?,customFields:o,csatScore:s?,csatFeedback:s?,estimatedCSAT:n?,totalMessages:n?,totalUserMessages:n?,totalAgentMessages:n?"));
    schemas.put("CustomFieldsResponse", sch("actionId:s,fields:a"));
    schemas.put("CustomFieldsUpdateResponse", sch("actionId:s,updated:a"));
    schemas.put("AgentListResponse", sch("success:b,data:a"));
    schemas.put("AgentDetailResponse", sch("success:b,data:o"));
    schemas.put("QueueListResponse", sch("success:b,data:a"));
    schemas.put("TagAnalyticsResponse", sch("success:b,data:o"));
    schemas.put("TagVolumeResponse", sch("success:b,data:o"));
    schemas.put("SuccessArray", sch("success:b,data:a"));
    schemas.put("EngagementResponse", sch("success:b,data:o"));
    schemas.put("ModerationAck", sch("caseId:s,externalId:s,status:s,analysisStatus:s,evaluationId:s,idempotency:o"));
    schemas.put("ModerationBatchResponse", sch("results:a"));
    Map<String,Object> ms = sch("caseId:s,externalId:s,analysisStatus:s"); ms.put("properties", new LinkedHashMap<>((Map<?,?>) ms.get("properties"))); schemas.put("ModerationStatus", ms);
    schemas.put("IngestResponse", sch("status:s,accepted:n"));
    OPENAPI = o("openapi", "3.0.3", "info", o("title", "Customer-Conversation Analytics Service API", "version", "0.9.2"), "servers", List.of(o("url", "/")),
      "components", o("securitySchemes", o("ApiKey", o("type", "apiKey", "in", "header", "name", "X-API-Key")), "schemas", schemas), "security", List.of(o("ApiKey", List.of())), "paths", paths);
    return OPENAPI;
  }
  static final String DOCS_HTML = """
    <!doctype html><html><head><meta charset="utf-8"><title>CCA API reference</title>
    <style>body{font-family:sans-serif;margin:2em}code{background:#eee;padding:2px 4px}.op{margin:.4em 0}</style></head>
    <body><h1>Customer-Conversation Analytics Service API (v0)</h1>
    <p>Authenticate every request with the <code>X-API-Key</code> header. The machine-readable contract is at <a href="/docs/json">/docs/json</a>.</p>
    <div id="ops">Loading operations...</div>
    <script>
    fetch('/docs/json').then(r=>r.json()).then(d=>{const el=document.getElementById('ops');el.innerHTML='';
    for(const [p,item] of Object.entries(d.paths)){for(const [m,op] of Object.entries(item)){const div=document.createElement('div');div.className='op';
    div.innerHTML='<code>'+m.toUpperCase()+'</code> <b>'+p+'</b> &mdash; '+op.summary+' <i>('+op.operationId+')</i>';el.appendChild(div);}}});
    </script></body></html>
    """;

  public static void main(String[] args) throws Exception {
    String dv = System.getenv("DEVIATIONS"); if (dv != null) for (String s : dv.split(",")) if (!s.isBlank()) DEV.add(s.trim());
    long seed = 1; try { seed = Long.parseLong(System.getenv().getOrDefault("SEED", "1")); } catch (NumberFormatException ignore) {}
    seed(seed);
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "0"));
    HttpServer srv = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
    srv.createContext("/", ex -> { try { handle(ex); } catch (Throwable t) { ex.close(); } });
    ExecutorService pool = Executors.newFixedThreadPool(16);
    srv.setExecutor(pool);
    srv.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> { srv.stop(0); pool.shutdownNow(); }));
    System.out.println("listening http://127.0.0.1:" + srv.getAddress().getPort());
    System.out.flush();
  }
}
