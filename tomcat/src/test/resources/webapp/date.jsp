<%@ page contentType="text/html; charset=UTF-8" import="java.time.LocalDate" %>
<html><body><h1>Date</h1><p>Today is <%= LocalDate.of(2026, 11, 24) %>, via <%= request.getScheme() %> on port <%= request.getLocalPort() %>.</p>
<p>Session <%= session.isNew() ? "new" : "known" %>.</p></body></html>
